// `file.write`: atomically write a yoke-owned file under .loop/ (guard-results.md and other views).
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { EffectHandler } from '../handler.js';
import { sha256 } from '../fs/blob-store.js';
import { loopPath } from '../fs/loop-path.js';
import { writeFileAtomic } from '../fs/write-file-atomic.js';

/** Replace `.loop/<file>` with `content` (UTF-8) atomically; the result is the sha256 of the bytes written. */
export const writeLoopFile: EffectHandler<'file.write'> = {
  policy: 'retry',
  async execute(params, ctx) {
    const path = loopPath(ctx.loopDir, params.file);
    const bytes = Buffer.from(params.content, 'utf8');
    await mkdir(dirname(path), { recursive: true });
    await writeFileAtomic(path, bytes);
    return { sha256: sha256(bytes) };
  },
};
