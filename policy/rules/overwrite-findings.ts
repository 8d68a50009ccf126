// Writing over a file that may exist: destructive when the tracked list shows a tracked file is lost.
import type { Finding } from '../classification.js';
import { normalizeAbsolute, projectRelative, resolvePath } from '../paths/resolve-path.js';
import type { Arg, CommandContext } from '../shell/command-context.js';

/** Whether `arg` names a file the tracked list holds (never when the list is unknown). */
function isTrackedFile(arg: Arg, ctx: CommandContext): boolean {
  const { tracked } = ctx.scope;
  if (tracked === undefined || arg.text === null || arg.glob || ctx.cwd === null && !arg.text.startsWith('/')) return false;
  const rel = projectRelative(resolvePath(ctx.cwd ?? '/', arg.text, ctx.scope.home), normalizeAbsolute(ctx.scope.root));
  return rel !== null && tracked.includes(rel);
}

/**
 * The findings of writing `arg` by replacing it (`mv`, `cp`, `ln -f` onto it): a write, and
 * destructive on top when it replaces a tracked file's content.
 */
export function overwriteFindings(arg: Arg, ctx: CommandContext, doing: string): Finding[] {
  const written = ctx.path('write', arg, doing);
  if (!isTrackedFile(arg, ctx)) return written;
  return [{ class: 'destructive', reason: `${doing} ${arg.text ?? ''} over a tracked file, whose content is lost`, path: written[0]?.path ?? arg.text ?? '' }, ...written];
}
