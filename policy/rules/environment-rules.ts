// Commands that print the environment (DESIGN §13 `secret`), and `env`, which may run a command instead.
import { resolvePath } from '../paths/resolve-path.js';
import type { CommandRule } from '../shell/command-context.js';
import { splitOptions } from '../shell/split-options.js';

/** `printenv` (any form: one variable may be a token too). */
export const printEnvironment: CommandRule = (name) => [{ class: 'secret', reason: `\`${name}\` prints environment variables, where tokens and keys live` }];

/** `set` with no arguments prints every variable; with options it only sets shell options. */
export const setShell: CommandRule = (name, args) => (args.length === 0
  ? [{ class: 'secret', reason: `\`${name}\` with no arguments prints every variable` }]
  : [{ class: 'read', reason: `\`${name}\` sets shell options` }]);

/** `compgen -v`/`-e` list variables, `export -p`, `declare -p` print them; other forms complete words. */
export const listVariables: CommandRule = (name, args) => {
  const split = splitOptions(args, { valued: ['A', 'W', 'F', 'C', 'X', 'P', 'S', 'G', 'o'] });
  const lists = split.flags.has('v') || split.flags.has('e') || split.flags.has('p') || split.operands.length === 0;
  return lists ? [{ class: 'secret', reason: `\`${name}\` prints the shell's variables` }] : [{ class: 'read', reason: `\`${name}\` completes words` }];
};

/** `env`: alone it prints the environment; with a command it runs it (`-C dir` in another directory, `-S` splitting a string). */
export const runWithEnvironment: CommandRule = (name, args, ctx) => {
  const split = splitOptions(args, { valued: ['u', 'unset', 'C', 'chdir', 'S', 'split-string'], stopAtOperand: true });
  const script = (split.values.get('S') ?? split.values.get('split-string'))?.[0];
  if (script !== undefined) return script.text === null ? [{ class: 'exec', reason: '`env -S` runs a command known only when it runs' }] : ctx.script(script.text, '`env -S` runs');
  const first = split.operands.findIndex((arg) => arg.text === null || !/^[A-Za-z_][A-Za-z0-9_]*=/.test(arg.text));
  const command = first === -1 ? [] : split.operands.slice(first);
  if (command.length === 0) return [{ class: 'secret', reason: `\`${name}\` with no command prints the environment` }];
  const dir = (split.values.get('C') ?? split.values.get('chdir'))?.[0];
  if (dir === undefined) return ctx.run(command);
  return ctx.run(command, dir.text === null || ctx.cwd === null ? null : resolvePath(ctx.cwd, dir.text, ctx.scope.home));
};
