// The shell syntax tree the classifier walks: parse-shell.ts builds it from mvdan/sh's tree, keeping
// what decides a command's effects (words, redirections, nesting) and dropping the rest.

/** One piece of a word. `text` is literal (`quoted`: no glob or tilde meaning); the others are known only at run time, except a simple `$NAME` the script itself assigned. */
export type ShellPart =
  | { kind: 'text'; text: string; quoted: boolean }
  | { kind: 'param'; name: string; quoted: boolean }
  | { kind: 'subst'; stmts: ShellStmt[]; quoted: boolean }
  | { kind: 'dynamic'; stmts: ShellStmt[] }
  | { kind: 'brace'; alternatives: ShellWord[] };

/** A shell word: the parts that are concatenated into one argument (before field splitting). */
export interface ShellWord {
  parts: ShellPart[];
}

/** `[N]op target`, or a here-document (`<<`, `<<-`) with its body. */
export interface ShellRedirect {
  op: string;
  fd: string | null;
  target: ShellWord | null;
  heredoc: ShellWord | null;
}

/** `NAME=value` (or `NAME=(…)`, or a bare name or option in `export`/`declare`). */
export interface ShellAssign {
  name: string | null;
  value: ShellWord | null;
}

/** What a statement runs. `group` is every compound command (blocks, subshells, if, loops, case, tests). */
export type ShellCommand =
  | { kind: 'call'; assigns: ShellAssign[]; args: ShellWord[] }
  | { kind: 'decl'; variant: string; assigns: ShellAssign[] }
  | { kind: 'group'; stmts: ShellStmt[]; words: ShellWord[]; subshell: boolean }
  | { kind: 'binary'; op: '&&' | '||' | '|' | '|&'; left: ShellStmt; right: ShellStmt }
  | { kind: 'function'; name: string; body: ShellStmt };

/** One statement: its command (null for a bare redirection like `> file`) and its redirections. */
export interface ShellStmt {
  command: ShellCommand | null;
  redirects: ShellRedirect[];
}
