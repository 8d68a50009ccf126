// Shells and `eval`: the script they run is parsed and classified in turn (`bash -c 'rm -rf x'`,
// and `bash x.sh` when yoke can see the file's text).
import type { CommandRule } from '../shell/command-context.js';
import { scriptFileFindings } from './script-file.js';

/** Shells whose `-c` script is bash-compatible enough to parse as bash. */
export const SHELLS = ['sh', 'bash', 'dash', 'zsh', 'ksh', 'ash', 'mksh', 'rbash'] as const;

const VALUED = new Set(['o', 'O']);

/** `sh -c 'script'`, `bash -lc …`, `bash script.sh`, `bash <<EOF …`: the script's findings, or `exec` when yoke cannot see it. */
export const runShell: CommandRule = (name, args, ctx) => {
  let i = 0;
  let inline = false;
  for (; i < args.length; i += 1) {
    const text = args[i]?.text ?? null;
    if (text === null || !text.startsWith('-') && !text.startsWith('+') || text === '-' || text === '--') break;
    if (text.startsWith('--')) { if (text === '--rcfile' || text === '--init-file') i += 1; continue; }
    if (text.includes('c')) inline = true;
    if ([...text.slice(1)].some((letter) => VALUED.has(letter))) i += 1;
  }
  if (args[i]?.text === '--' || args[i]?.text === '-') i += 1;
  const operand = args[i];
  if (inline) {
    if (operand === undefined) return [{ class: 'exec', reason: `\`${name} -c\` has no script` }];
    return operand.text === null ? [{ class: 'exec', reason: `\`${name} -c\` runs a script known only when it runs` }] : ctx.script(operand.text, `\`${name} -c\` runs`);
  }
  if (operand !== undefined) return scriptFileFindings(operand, ctx, `\`${name}\``, (text) => ctx.script(text, `the script ${operand.text ?? ''} run by \`${name}\``));
  if (ctx.stdin !== undefined) return ctx.script(ctx.stdin, `\`${name}\` reads from its input and runs`);
  return [{ class: 'exec', reason: `\`${name}\` runs the script on its standard input, which yoke cannot see` }];
};

/** `eval words…`: the words joined are a script. */
export const evaluate: CommandRule = (name, args, ctx) => {
  if (args.some((arg) => arg.text === null)) return [{ class: 'exec', reason: `\`${name}\` runs a script known only when it runs` }];
  return ctx.script(args.map((arg) => arg.text ?? '').join(' '), `\`${name}\` runs`);
};

/** `source file` / `. file`: runs the file in this shell; reading a secret file this way is reading it. */
export const sourceFile: CommandRule = (name, args, ctx) => {
  const file = args[0];
  if (file === undefined) return [{ class: 'exec', reason: `\`${name}\` has no file` }];
  return scriptFileFindings(file, ctx, `\`${name}\``, (text) => ctx.script(text, `the file ${file.text ?? ''} sourced by \`${name}\``));
};
