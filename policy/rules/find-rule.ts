// `find`: lists (reads) its start paths; `-delete` deletes what it finds; `-exec`/`-ok` run a command
// on each found file, which yoke cannot name (`find … -exec rm {} +` is destructive).
import type { Finding } from '../classification.js';
import { UNKNOWN_ARG, type Arg, type CommandRule } from '../shell/command-context.js';

const EXEC_ACTIONS = ['-exec', '-execdir', '-ok', '-okdir'];
const WRITE_ACTIONS = ['-fprint', '-fprint0', '-fprintf', '-fls'];

/** `find [paths] [expression]`. */
export const findFiles: CommandRule = (name, args, ctx) => {
  const start = args.findIndex((arg) => arg.text === null || /^[-(!)]/.test(arg.text));
  const roots = start === -1 ? args : args.slice(0, start);
  const expression = start === -1 ? [] : args.slice(start);
  const dirs = roots.length > 0 ? roots : [{ text: '.', glob: false }];
  const findings: Finding[] = dirs.flatMap((dir) => ctx.path('read', dir, `\`${name}\` lists`));
  for (let i = 0; i < expression.length; i += 1) {
    const word = expression[i]?.text ?? null;
    if (word === '-delete') findings.push(...dirs.map((dir): Finding => ({ class: 'destructive', reason: `\`${name} -delete\` deletes every file it finds under ${dir.text ?? 'a path known only when it runs'}` })));
    if (word !== null && WRITE_ACTIONS.includes(word)) findings.push(...ctx.path('write', expression[i + 1] ?? UNKNOWN_ARG, `\`${name} ${word}\` writes`));
    if (word === null || !EXEC_ACTIONS.includes(word)) continue;
    const end = expression.findIndex((arg, j) => j > i && (arg.text === ';' || arg.text === '+'));
    const command: Arg[] = expression.slice(i + 1, end === -1 ? undefined : end).map((arg) => (arg.text?.includes('{}') === true ? UNKNOWN_ARG : arg));
    findings.push(...ctx.run(command));
    i = end === -1 ? expression.length : end;
  }
  return findings;
};
