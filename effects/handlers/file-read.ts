// `file.read`: a whole .loop/ file as text, so its content becomes a journaled fact.
import type { EffectHandler } from '../handler.js';
import { loopPath } from '../fs/loop-path.js';
import { readOptionalFile } from '../fs/read-optional-file.js';

/** The file's UTF-8 text, or null when it does not exist. */
export const readLoopFile: EffectHandler<'file.read'> = {
  policy: 'retry',
  async execute(params, ctx) {
    const content = await readOptionalFile(loopPath(ctx.loopDir, params.file));
    return { content: content === null ? null : content.toString('utf8') };
  },
};
