// The literal words of a `sh -c` command line, with where each starts: enough of the shell's own
// reading to tell which words name files (issue 20, item 15). Never used to run anything.

/** A word as `sh` would pass it on, without quotes, and its offset in the command. */
export interface ShellWord {
  text: string;
  start: number;
  /** false when the word holds an unquoted `$`, a backquote or a glob character: its value is only known when sh runs it */
  literal: boolean;
  /** the word right after an output redirection (`>`, `>>`, `2>`, `&>`): a file the command writes, not one it reads */
  output: boolean;
}

const OPERATOR = /^(?:&&|\|\||;;|[;&|()<>])/;
const OUTPUT_REDIRECT = /^(?:\d*>>?|&>>?|\d*>\|)$/;

/**
 * Split `command` into words the way `sh` does for quoting: single quotes keep everything,
 * double quotes keep all but `\\`-escapes of `$ \` " \\`, a backslash outside quotes escapes the next
 * character, and unquoted spaces, tabs, newlines and operators (`; & | ( ) < >`) end a word. The
 * command after `sh -c` / `bash -c` is read too, since it is a command of its own.
 *
 * @example shellWords('FOO=1 ./run.sh "a b" > out.txt').map((w) => w.text) // ['FOO=1', './run.sh', 'a b', 'out.txt']
 */
export function shellWords(command: string): ShellWord[] {
  const words: ShellWord[] = [];
  let i = 0;
  let pendingOutput = false;
  while (i < command.length) {
    const rest = command.slice(i);
    const space = /^[ \t\n]+/.exec(rest);
    if (space) {
      i += space[0].length;
      continue;
    }
    const redirect = /^(?:\d*>>?\|?|&>>?|\d*<)/.exec(rest);
    if (redirect) {
      pendingOutput = OUTPUT_REDIRECT.test(redirect[0]);
      i += redirect[0].length;
      continue;
    }
    const operator = OPERATOR.exec(rest);
    if (operator) {
      i += operator[0].length;
      pendingOutput = false;
      continue;
    }
    const start = i;
    let text = '';
    let literal = true;
    while (i < command.length && !/[ \t\n;&|()<>]/.test(command[i] ?? '')) {
      const ch = command[i] ?? '';
      if (ch === "'") {
        const end = command.indexOf("'", i + 1);
        const close = end < 0 ? command.length : end;
        text += command.slice(i + 1, close);
        i = close + 1;
      } else if (ch === '"') {
        i += 1;
        while (i < command.length && command[i] !== '"') {
          const inner = command[i] ?? '';
          if (inner === '\\' && /[$`"\\\n]/.test(command[i + 1] ?? '')) {
            text += command[i + 1] ?? '';
            i += 2;
          } else {
            if (inner === '$' || inner === '`') literal = false;
            text += inner;
            i += 1;
          }
        }
        i += 1;
      } else if (ch === '\\') {
        text += command[i + 1] ?? '';
        i += 2;
      } else {
        if (/[$`*?[~]/.test(ch)) literal = false;
        text += ch;
        i += 1;
      }
    }
    words.push({ text, start, literal, output: pendingOutput });
    pendingOutput = false;
  }
  return withInnerCommands(words);
}

const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh']);

/** The words of `sh -c '<command>'` include that command's own words (placed at the `-c` argument). */
function withInnerCommands(words: ShellWord[]): ShellWord[] {
  const result: ShellWord[] = [];
  words.forEach((word, index) => {
    result.push(word);
    const shell = words[index - 2];
    if (words[index - 1]?.text !== '-c' || shell === undefined || !SHELLS.has(shell.text.split('/').at(-1) ?? '')) return;
    // Offsets inside the quoted argument are approximate (its quotes are gone): point at the argument.
    for (const inner of shellWords(word.text)) result.push({ ...inner, start: word.start });
  });
  return result;
}
