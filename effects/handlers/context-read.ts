// `context.read`: the "Project context" block ahead of an agent call, and backups of the files yoke holds during it.
import type { EffectHandler } from '../handler.js';
import { contextBlock } from '../../machines/context/context-block.js';
import { PROTECTED_CONTEXT_FILES, type ProtectedContextFile } from '../../machines/context/context-files.js';
import { putBlob } from '../fs/blob-store.js';
import { readContextFiles } from '../context/read-context-files.js';

/**
 * Read `.yoke/context/`, build the block within `budget` (contextBlock), and store PROJECT.md and
 * DECISIONS.md as blobs so the agent call can put them back. Reads only: safe to run again.
 */
export const readContext: EffectHandler<'context.read'> = {
  policy: 'retry',
  async execute(params, ctx) {
    const files = await readContextFiles(ctx.root);
    const { block, shares } = contextBlock(files.map((file) => ({ name: file.name, text: file.content?.toString('utf8') ?? null })), params.budget);
    const guard = {} as Record<ProtectedContextFile, string | null>;
    for (const name of PROTECTED_CONTEXT_FILES) {
      const content = files.find((file) => file.name === name)?.content ?? null;
      guard[name] = content === null ? null : await putBlob(ctx.loopDir, content);
    }
    return {
      block,
      files: files.map((file) => ({ name: file.name, bytes: file.content?.length ?? null, injected: shares.find((share) => share.name === file.name)?.injected ?? 0 })),
      guard,
    };
  },
};
