// `file.inspect`: whether a .loop/ file exists, its first line, and whether it is blank.
import { stat } from 'node:fs/promises';
import type { EffectHandler } from '../handler.js';
import { loopPath } from '../fs/loop-path.js';
import { firstLineOf } from '../fs/first-line.js';
import { readOptionalFile } from '../fs/read-optional-file.js';

/**
 * Used for verdict.md, saga-notes.md and sub-plan.md. The first line loses a leading byte-order
 * mark and trailing spaces, tabs and CR (null when missing or empty: effects/fs/first-line.ts); `blank` is true for a missing file or
 * one with nothing but whitespace.
 */
export const inspectFile: EffectHandler<'file.inspect'> = {
  policy: 'retry',
  async execute(params, ctx) {
    const path = loopPath(ctx.loopDir, params.file);
    const content = await readOptionalFile(path);
    if (content === null) return { exists: false, firstLine: null, blank: true, stamp: null };
    const stats = await stat(path, { bigint: true });
    const text = content.toString('utf8');
    return { exists: true, firstLine: firstLineOf(text), blank: text.replace(/^\uFEFF/, '').trim() === '', stamp: `${stats.mtimeNs}:${stats.size}` };
  },
};
