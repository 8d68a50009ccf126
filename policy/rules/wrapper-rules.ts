// Commands that run another command: `sudo`, `nice`, `time`, `timeout`, `xargs`, `watch` … The
// inner command is classified as if it stood alone; the wrapper adds what it does itself.
import type { Finding } from '../classification.js';
import { UNKNOWN_ARG, type Arg, type CommandRule } from '../shell/command-context.js';
import { splitOptions } from '../shell/split-options.js';

/** Options that take a value, per wrapper (the command starts at the first operand). */
const WRAPPER_OPTIONS: { readonly [name: string]: readonly string[] } = {
  sudo: ['u', 'g', 'p', 'C', 'h', 'r', 't', 'T', 'U', 'D', 'R', 'user', 'group', 'prompt', 'chdir', 'host', 'role', 'type'],
  doas: ['u', 'C'],
  nice: ['n', 'adjustment'],
  ionice: ['c', 'n', 'p', 'class', 'classdata'],
  nohup: [],
  time: ['f', 'o', 'format', 'output'],
  command: [],
  builtin: [],
  exec: ['a'],
  stdbuf: ['i', 'o', 'e', 'input', 'output', 'error'],
  setsid: [],
  unbuffer: [],
  chrt: [],
  caffeinate: ['t', 'w'],
  strace: ['o', 'e', 'p', 's', 'u', 'E'],
  ltrace: ['o', 'e', 'p', 's', 'u'],
  chroot: [],
  busybox: [],
};

/** The wrappers `runWrapped` knows. */
export const WRAPPERS = Object.keys(WRAPPER_OPTIONS);

/** `sudo cmd`, `nice -n 5 cmd`, `time cmd` …: the inner command's findings (sudo adds `exec`: it runs as another user). */
export const runWrapped: CommandRule = (name, args, ctx) => {
  const split = splitOptions(args, { valued: WRAPPER_OPTIONS[name] ?? [], stopAtOperand: true });
  let command: Arg[] = split.operands;
  if (name === 'chroot') command = command.slice(1);
  if (name === 'command' && (split.flags.has('v') || split.flags.has('V'))) return [{ class: 'read', reason: '`command -v` looks a name up' }];
  const own: Finding[] = name === 'sudo' || name === 'doas' || name === 'chroot' ? [{ class: 'exec', reason: `\`${name}\` runs a command with other privileges` }] : [];
  const output = [...(split.values.get('o') ?? []), ...(split.values.get('output') ?? [])];
  if (name === 'time' || name === 'strace' || name === 'ltrace') own.push(...output.flatMap((arg) => ctx.path('write', arg, `\`${name} -o\` writes`)));
  if (command.length === 0) return own.length > 0 ? own : [{ class: 'exec', reason: `\`${name}\` starts a shell or does nothing yoke can see` }];
  return [...own, ...ctx.run(command)];
};

/** `timeout [opts] DURATION cmd`. */
export const runWithTimeout: CommandRule = (_name, args, ctx) => {
  const split = splitOptions(args, { valued: ['s', 'k', 'signal', 'kill-after'], stopAtOperand: true });
  return ctx.run(split.operands.slice(1));
};

/** `xargs cmd …`: runs cmd with arguments read from its input, which yoke cannot see (`rm` on them is destructive). */
export const runWithInput: CommandRule = (_name, args, ctx) => {
  const split = splitOptions(args, {
    valued: ['I', 'i', 'n', 'P', 'L', 's', 'd', 'E', 'a', 'replace', 'max-args', 'max-procs', 'max-lines', 'delimiter', 'eof', 'arg-file', 'max-chars'],
    stopAtOperand: true,
  });
  const replace = (split.values.get('I') ?? split.values.get('i') ?? split.values.get('replace'))?.[0]?.text ?? null;
  const files = [...(split.values.get('a') ?? []), ...(split.values.get('arg-file') ?? [])].flatMap((arg) => ctx.path('read', arg, '`xargs -a` reads'));
  const command = split.operands.length > 0 ? split.operands : [{ text: 'echo', glob: false }];
  const words = replace === null ? [...command, UNKNOWN_ARG] : command.map((arg) => (arg.text?.includes(replace) === true ? UNKNOWN_ARG : arg));
  return [...files, ...ctx.run(words)];
};

/** `watch cmd`: runs the command again and again through `sh -c`. */
export const runRepeatedly: CommandRule = (_name, args, ctx) => {
  const split = splitOptions(args, { valued: ['n', 'interval', 'd', 'q', 'g'], stopAtOperand: true });
  if (split.operands.some((arg) => arg.text === null)) return [{ class: 'exec', reason: '`watch` runs a command known only when it runs' }];
  return ctx.script(split.operands.map((arg) => arg.text ?? '').join(' '), '`watch` runs');
};
