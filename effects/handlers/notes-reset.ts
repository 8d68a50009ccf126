// `notes.reset`: overwrite only the first line of a notes file, keeping the rest byte for byte (spec 2.4).
import { writeFileAtomic } from '../fs/write-file-atomic.js';
import type { EffectHandler } from '../handler.js';
import { loopPath } from '../fs/loop-path.js';
import { readOptionalFile } from '../fs/read-optional-file.js';

/** Replace line 1 with `firstLine`; a missing file becomes just that line. Idempotent. */
export const resetNotes: EffectHandler<'notes.reset'> = {
  policy: 'retry',
  async execute(params, ctx) {
    const path = loopPath(ctx.loopDir, params.file);
    const content = await readOptionalFile(path);
    const text = content === null ? '' : content.toString('utf8');
    const newline = text.indexOf('\n');
    const rest = newline === -1 ? '\n' : text.slice(newline);
    const next = `${params.firstLine}${rest}`;
    if (next === text) return { changed: false };
    await writeFileAtomic(path, Buffer.from(next, 'utf8'));
    return { changed: true };
  },
};
