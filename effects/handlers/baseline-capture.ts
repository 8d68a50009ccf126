// `baseline.capture`: back up the spec files as blobs and snapshot the project tree outside .loop/.
import type { EffectHandler } from '../handler.js';
import { putBlob } from '../fs/blob-store.js';
import { captureWorkTree } from '../git/git-tree.js';
import { readHead } from '../git/head-state.js';
import { loopPath } from '../fs/loop-path.js';
import { readOptionalFile } from '../fs/read-optional-file.js';

/**
 * Store each spec file's content (null when absent), the boundary baseline tree (with the git-ignored
 * files under `ignoredUnder` hashed into it) and where HEAD is; safe to repeat.
 */
export const captureBaseline: EffectHandler<'baseline.capture'> = {
  policy: 'retry',
  async execute(params, ctx) {
    const head = readHead(ctx.root);
    head.catch(() => undefined);
    const specFiles: Record<string, string | null> = {};
    for (const name of params.specFiles) {
      const content = await readOptionalFile(loopPath(ctx.loopDir, name));
      specFiles[name] = content === null ? null : await putBlob(ctx.loopDir, content);
    }
    return { specFiles, tree: await captureWorkTree(ctx.root, params.ignoredUnder), head: await head };
  },
};
