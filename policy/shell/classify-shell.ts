// Classifies a shell command by walking its syntax tree: each statement's redirections and command,
// in order, with the directory and variables the script itself sets (`cd x && rm -f -- *`).
import type { Finding } from '../classification.js';
import { pathFindings, type PathAct } from '../paths/path-findings.js';
import { resolvePath } from '../paths/resolve-path.js';
import { commandFindings } from '../rules/command-findings.js';
import { runPath } from '../rules/run-path.js';
import type { ToolScope } from '../tool-scope.js';
import { literal, type Arg, type CommandContext } from './command-context.js';
import { expandWord, wordText, type WordEnv } from './evaluate-word.js';
import { parseShell } from './parse-shell.js';
import { forkState, type ShellState } from './shell-state.js';
import type { ShellCommand, ShellRedirect, ShellStmt } from './shell-tree.js';

/** How deep `sh -c` inside `sh -c` is followed before yoke stops looking. */
const MAX_DEPTH = 6;

interface Walk {
  scope: ToolScope;
  depth: number;
}

const WRITE_OPS = ['>', '>|', '&>', '>>', '&>>', '<>'];
const TRUNCATING_OPS = ['>', '>|', '&>'];

function wordEnv(state: ShellState, walk: Walk): WordEnv {
  return {
    state,
    scope: walk.scope,
    walk: (stmts, inner) => walkStmts(stmts, inner, walk),
    printed: (stmts, inner) => (stmts.length === 1 && stmts[0] !== undefined ? printedText(stmts[0], inner, walk) : undefined),
  };
}

function args(words: ShellCommand & { kind: 'call' }, env: WordEnv, findings: Finding[]): Arg[] {
  return words.args.flatMap((word) => expandWord(word, env, findings));
}

/** Whether a command prints nothing, so `cmd > f` only empties f (`: > f`, `true > f`, `cat /dev/null > f`). */
function printsNothing(command: ShellCommand | null, env: WordEnv): boolean {
  if (command === null) return true;
  if (command.kind !== 'call' || command.args.length === 0) return command.kind === 'call';
  const words = args(command, env, []).map((arg) => arg.text);
  const [name, ...rest] = words;
  if (name === ':' || name === 'true' || name === 'false') return true;
  if (name === 'cat') return rest.length > 0 && rest.every((word) => word === '/dev/null');
  if (name === 'echo') return rest.includes('-n') && rest.every((word) => word === '' || word === '-n');
  if (name === 'printf') return rest.length >= 1 && rest.every((word) => word === '');
  return false;
}

function networkDevice(target: string | null): boolean {
  return target !== null && /^\/dev\/(tcp|udp)\//.test(target);
}

function redirectFindings(redirect: ShellRedirect, stmt: ShellStmt, state: ShellState, walk: Walk, stdin: { text: string | undefined }): Finding[] {
  const findings: Finding[] = [];
  const env = wordEnv(state, walk);
  if (redirect.op === '<<' || redirect.op === '<<-') {
    stdin.text = redirect.heredoc === null ? undefined : wordText(redirect.heredoc, env, findings) ?? undefined;
    return findings;
  }
  const target = redirect.target === null ? null : expandWord(redirect.target, env, findings)[0] ?? { text: null, glob: false };
  if (redirect.op === '<<<') {
    stdin.text = target?.text ?? undefined;
    return findings;
  }
  if (target === null) return findings;
  if ((redirect.op === '>&' || redirect.op === '<&') && (target.text === null || /^(\d+|-)$/.test(target.text))) return findings;
  if (networkDevice(target.text)) return [...findings, { class: 'network', reason: `a \`${redirect.op}\` redirect opens a connection (${target.text ?? ''})` }];
  const origin = { cwd: state.cwd, scope: walk.scope, doing: `a \`${redirect.op}\` redirect` };
  if (redirect.op === '<' && target.text === '/dev/null') stdin.text = '';
  if (redirect.op === '<' || redirect.op === '<&') return [...findings, ...pathFindings('read', target, { ...origin, doing: `${origin.doing} reads` })];
  if (!WRITE_OPS.includes(redirect.op) && redirect.op !== '>&') return findings;
  const truncates = TRUNCATING_OPS.includes(redirect.op) && printsNothing(stmt.command, env);
  const act: PathAct = truncates ? 'truncate' : 'write';
  return [...findings, ...pathFindings(act, target, { ...origin, doing: `${origin.doing} ${truncates ? 'empties' : 'writes'}` })];
}

function changeDirectory(words: Arg[], state: ShellState, scope: ToolScope): void {
  const [name, ...rest] = words;
  const operands = rest.filter((arg) => arg.text === null || !arg.text.startsWith('-') || arg.text === '-');
  if (name?.text === 'popd') { state.cwd = null; return; }
  const target = operands[0];
  if (target === undefined) { state.cwd = scope.home ?? null; return; }
  state.cwd = target.text === null || target.text === '-' || target.glob || state.cwd === null && !target.text.startsWith('/') ? null : resolvePath(state.cwd ?? '/', target.text, scope.home);
}

function commandContext(state: ShellState, walk: Walk, stdin: string | undefined): CommandContext {
  return {
    scope: walk.scope,
    cwd: state.cwd,
    stdin,
    path: (act, arg, doing) => pathFindings(act, arg, { cwd: state.cwd, scope: walk.scope, doing }),
    run: (words, cwd) => runWords(words, { ...forkState(state), ...(cwd === undefined ? {} : { cwd }) }, walk, undefined),
    script: (text, origin) => scriptFindings(text, forkState(state), walk, origin),
    moveTo: (cwd) => commandContext({ ...forkState(state), cwd }, walk, stdin),
    scriptFile: (arg) => scriptFile(arg, state, walk.scope),
  };
}

/** The absolute path `arg` names from the state's cwd, or null when it is known only at run time. */
function absolutePath(arg: Arg, state: ShellState, scope: ToolScope): string | null {
  if (arg.text === null || arg.glob || state.cwd === null && !arg.text.startsWith('/') && !arg.text.startsWith('~')) return null;
  return resolvePath(state.cwd ?? '/', arg.text, scope.home);
}

/** A file run as a script: what this command wrote to it, else what the gate read (CommandContext.scriptFile). */
function scriptFile(arg: Arg, state: ShellState, scope: ToolScope): { path: string | null; text: string | null; unread: boolean } {
  const path = absolutePath(arg, state, scope);
  if (path === null) return { path, text: null, unread: false };
  const written = state.files?.get(path);
  if (written !== undefined) return { path, text: written, unread: false };
  const read = scope.scripts?.[path];
  return { path, text: read ?? null, unread: read === undefined };
}

/**
 * Remembers what a statement writes to files whose text it spells out (`printf 'rm -rf k' > x.sh`,
 * `cat > x.sh <<EOF …`, `echo … >> x.sh` after one of those), so running the file later in the same
 * command is classified from that text; any other write makes the file's text unknown.
 */
function recordWrites(stmt: ShellStmt, state: ShellState, walk: Walk, stdin: string | undefined): void {
  for (const redirect of stmt.redirects) {
    if (!WRITE_OPS.includes(redirect.op) || redirect.target === null) continue;
    const target = expandWord(redirect.target, wordEnv(forkState(state), walk), [])[0];
    const path = target === undefined ? null : absolutePath(target, state, walk.scope);
    if (path === null) continue;
    const command = stmt.command;
    const cat = command?.kind === 'call' && command.args.length === 1 && wordText(command.args[0]!, wordEnv(forkState(state), walk), []) === 'cat';
    const printed = cat ? stdin : printedText(stmt, state, walk);
    const before = state.files?.get(path);
    const appends = redirect.op === '>>' || redirect.op === '&>>';
    const text = printed === undefined ? null : appends ? (before === undefined || before === null ? null : `${before}\n${printed}`) : printed;
    state.files = new Map(state.files).set(path, text);
  }
}

/** `alias name=value` remembered, so `name args` is read as `value args` (scripts may turn aliases on). */
function defineAliases(words: Arg[], state: ShellState): void {
  for (const word of words.slice(1)) {
    const eq = word.text?.indexOf('=') ?? -1;
    if (word.text !== null && eq > 0) state.vars.set(`alias ${word.text.slice(0, eq)}`, word.text.slice(eq + 1));
  }
}

function runWords(words: Arg[], state: ShellState, walk: Walk, stdin: string | undefined): Finding[] {
  const [name, ...rest] = words;
  if (name === undefined) return [];
  if (name.text === null) return [{ class: 'exec', reason: 'it runs a command whose name is known only when it runs' }];
  if (name.text === 'alias') { defineAliases(words, state); return [{ class: 'read', reason: '`alias` defines a name' }]; }
  const alias = state.vars.get(`alias ${name.text}`);
  if (alias !== undefined && alias !== null) {
    const line = [alias, ...rest.map((arg) => (arg.text === null ? '"$__unknown"' : `'${arg.text.replace(/'/g, "'\\''")}'`))].join(' ');
    const inner = forkState(state);
    inner.vars.delete(`alias ${name.text}`);
    return scriptFindings(line, inner, walk, `the alias \`${name.text}\` runs`);
  }
  const base = name.text.split('/').at(-1) ?? name.text;
  if (base === 'cd' || base === 'pushd' || base === 'popd') { changeDirectory([literal(base), ...rest], state, walk.scope); return []; }
  // `./clean.sh`, `bin/x`: a file of the project, run by its path (a program on PATH keeps its rule)
  const ctx = commandContext(state, walk, stdin);
  if (name.text.includes('/') && !/^\/(usr\/)?(s?bin|local\/s?bin)\//.test(name.text)) return runPath(name, rest, ctx, () => commandFindings(base, rest, ctx));
  return commandFindings(base, rest, ctx);
}

function assignVariables(command: ShellCommand & { kind: 'call' | 'decl' }, env: WordEnv, findings: Finding[], store: boolean): void {
  for (const assign of command.assigns) {
    const value = assign.value === null ? null : wordText(assign.value, env, findings);
    if (store && assign.name !== null) env.state.vars.set(assign.name, value);
  }
}

/** The text a here-document (`<<X`) or here-string (`<<<`) of the statement gives its command, when the script decides it. */
function inlineInput(stmt: ShellStmt, state: ShellState, walk: Walk): string | undefined {
  const env = wordEnv(forkState(state), walk);
  for (const redirect of stmt.redirects) {
    if ((redirect.op === '<<' || redirect.op === '<<-') && redirect.heredoc !== null) return wordText(redirect.heredoc, env, []) ?? undefined;
    if (redirect.op === '<<<' && redirect.target !== null) return wordText(redirect.target, env, []) ?? undefined;
  }
  return undefined;
}

/** What echo, printf or `cat <<X` prints, when the words decide it: the text a pipe hands the next command. */
function printedText(stmt: ShellStmt, state: ShellState, walk: Walk): string | undefined {
  if (stmt.command?.kind !== 'call') return undefined;
  const words = args(stmt.command, wordEnv(forkState(state), walk), []).map((arg) => arg.text);
  const [name, ...rest] = words;
  if (name === 'cat' && rest.length === 0) return inlineInput(stmt, state, walk);
  if (rest.some((word) => word === null)) return undefined;
  const known = rest as string[];
  if (name === 'echo') return known.filter((word) => !/^-[neE]+$/.test(word)).join(' ');
  if (name === 'printf' && known.length === 1 && !known[0]?.includes('%')) return known[0];
  if (name === 'printf' && known.length === 2 && /^%s(\\n)?$/.test(known[0] ?? '')) return known[1];
  return undefined;
}

function commandFindingsOf(stmt: ShellStmt, state: ShellState, walk: Walk, stdin: string | undefined): Finding[] {
  const command = stmt.command;
  if (command === null) return [];
  const findings: Finding[] = [];
  const env = wordEnv(state, walk);
  switch (command.kind) {
    case 'call': {
      assignVariables(command, env, findings, command.args.length === 0);
      const words = args(command, env, findings);
      return [...findings, ...runWords(words, state, walk, stdin)];
    }
    case 'decl': {
      assignVariables(command, env, findings, true);
      const bare = command.assigns.every((assign) => assign.value === null || assign.name === null);
      const names = command.assigns.filter((assign) => assign.name !== null);
      if (bare && names.length === 0 && command.variant !== 'local') findings.push({ class: 'secret', reason: `\`${command.variant}\` with no names prints the environment` });
      return findings;
    }
    case 'group': {
      for (const word of command.words) expandWord(word, env, findings);
      return [...findings, ...walkStmts(command.stmts, command.subshell ? forkState(state) : state, walk)];
    }
    case 'binary': {
      if (command.op === '&&' || command.op === '||') return [...walkStmt(command.left, state, walk, stdin), ...walkStmt(command.right, state, walk, undefined)];
      const piped = printedText(command.left, state, walk);
      return [...walkStmt(command.left, forkState(state), walk, stdin), ...walkStmt(command.right, forkState(state), walk, piped)];
    }
    case 'function': return walkStmt(command.body, forkState(state), walk, undefined);
  }
}

function walkStmt(stmt: ShellStmt, state: ShellState, walk: Walk, stdin: string | undefined): Finding[] {
  const input = { text: stdin };
  const redirected = stmt.redirects.flatMap((redirect) => redirectFindings(redirect, stmt, state, walk, input));
  const findings = [...redirected, ...commandFindingsOf(stmt, state, walk, input.text)];
  recordWrites(stmt, state, walk, input.text);
  return findings;
}

function walkStmts(stmts: ShellStmt[], state: ShellState, walk: Walk): Finding[] {
  return stmts.flatMap((stmt) => walkStmt(stmt, state, walk, undefined));
}

function scriptFindings(source: string, state: ShellState, walk: Walk, origin: string): Finding[] {
  if (walk.depth >= MAX_DEPTH) return [{ class: 'exec', reason: `${origin} nests shells more than ${MAX_DEPTH} deep; yoke stops looking` }];
  const parsed = parseShell(source);
  if (!parsed.ok) return [{ class: 'exec', reason: `${origin} a script yoke could not parse (${parsed.error}), so it cannot see what it does` }];
  return walkStmts(parsed.stmts, state, { ...walk, depth: walk.depth + 1 });
}

/**
 * The findings of a shell command run in `cwd`: what each of its commands and redirections does.
 * Unparseable text is `exec`, with the parser's reason.
 * @example classifyShell('cd dir && rm -f -- *', scope, '/p') // [{ class: 'destructive', … }]
 */
export function classifyShell(source: string, scope: ToolScope, cwd: string): Finding[] {
  const parsed = parseShell(source);
  if (!parsed.ok) return [{ class: 'exec', reason: `yoke could not parse the shell command (${parsed.error}), so it cannot see what it does` }];
  return walkStmts(parsed.stmts, { cwd, vars: new Map() }, { scope, depth: 0 });
}
