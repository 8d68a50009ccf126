// `notes.read`: the first line of a status file such as notes.md or verdict.md.
import type { EffectHandler } from '../handler.js';
import { loopPath } from '../fs/loop-path.js';
import { firstLineOf } from '../fs/first-line.js';
import { readOptionalFile } from '../fs/read-optional-file.js';

/**
 * The first line of `.loop/<file>` without a leading byte-order mark and without trailing spaces,
 * tabs or CR; null when the file is missing or that line is empty (effects/fs/first-line.ts).
 */
export const readNotes: EffectHandler<'notes.read'> = {
  policy: 'retry',
  async execute(params, ctx) {
    const content = await readOptionalFile(loopPath(ctx.loopDir, params.file));
    if (content === null) return { firstLine: null };
    return { firstLine: firstLineOf(content.toString('utf8')) };
  },
};
