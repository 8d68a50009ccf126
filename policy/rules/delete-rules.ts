// Commands that delete: `rm`, `rmdir`, `unlink`, `shred` (DESIGN §13 `destructive`).
import type { CommandRule } from '../shell/command-context.js';
import { hasFlag, splitOptions } from '../shell/split-options.js';

/** `rm`, `rmdir`, `unlink`: each operand is deleted (a glob or unknown operand is destructive whatever the tracked list says). */
export const deleteFiles: CommandRule = (name, args, ctx) => {
  const split = splitOptions(args);
  const recursive = hasFlag(split, 'r', 'R', 'recursive');
  const doing = `\`${name}${recursive ? ' -r' : ''}\` deletes`;
  return split.operands.flatMap((arg) => ctx.path('delete', arg, doing));
};

/** `shred`: overwrites each operand so it cannot be recovered (and deletes it with `-u`). */
export const shredFiles: CommandRule = (name, args, ctx) => {
  const split = splitOptions(args, { valued: ['n', 's', 'iterations', 'size', 'random-source'] });
  return split.operands.flatMap((arg) => ctx.path('shred', arg, `\`${name}\` destroys`));
};
