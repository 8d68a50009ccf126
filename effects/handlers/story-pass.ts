// `story.pass`: a story passed, materialized in one commit: `passes: true` in prd.yaml, its DECISIONS.md entry and the work.
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { setStoryPasses } from '../../config/prd/set-story-passes.js';
import type { EffectContext, EffectHandler } from '../handler.js';
import { putBlob } from '../fs/blob-store.js';
import { loopPath } from '../fs/loop-path.js';
import { readOptionalFile } from '../fs/read-optional-file.js';
import { writeFileAtomic } from '../fs/write-file-atomic.js';
import { YokeError } from '../../errors/yoke-error.js';
import { appendDecision } from '../../machines/context/decision-entry.js';
import type { EffectParams } from '../../machines/effects.js';
import { commitProject, reconcileCommit } from './commit-create.js';

/** Where the context layer's decision ledger lives, relative to the project root (DESIGN §9). */
const CONTEXT_DIR = join('.yoke', 'context');

/**
 * Write `passes: true` for the story into `.loop/prd.yaml`, append the decision entry to
 * `.yoke/context/DECISIONS.md` when `.yoke/context/` exists (never creating it), then commit
 * everything with the trailers Yoke-Run, Yoke-Effect and Yoke-Story. Each step is idempotent, so a
 * retry after a crash between them ends with one commit: the flag is set once, the entry is not
 * appended again when the ledger already ends with it, and `reconcile` finds a commit that carries
 * this effect's trailer instead of committing twice. If the commit fails, the ledger is put back:
 * no entry is left without its commit.
 */
export const passStory: EffectHandler<'story.pass'> = {
  policy: 'reconcile',
  async execute(params, ctx) {
    const prdBlob = await materializePasses(params.story, ctx);
    const ledger = await appendEntry(ctx.root, params.decision);
    if (!params.commit) return { sha: null, prdBlob };
    try {
      return { ...(await commitProject(params, ctx, [`Yoke-Story: ${params.story}`])), prdBlob };
    } catch (error) {
      if (ledger !== null) await writeFileAtomic(ledger.path, ledger.before);
      throw error;
    }
  },
  async reconcile(params, ctx) {
    if (!params.commit) return null;
    const found = await reconcileCommit(params, ctx);
    if (found === null) return null;
    // The commit holds prd.yaml with the flag set: the spec backup is that content.
    return { ...found, prdBlob: await materializePasses(params.story, ctx) };
  },
};

/** Set the story's flag in prd.yaml (a no-op when it is already set) and store the result as the spec blob. */
async function materializePasses(story: string, ctx: EffectContext): Promise<string> {
  const path = loopPath(ctx.loopDir, 'prd.yaml');
  const current = await readOptionalFile(path);
  if (current === null) throw new YokeError('workspace', `.loop/prd.yaml is missing while story ${story} passes; restore it (\`git checkout -- .loop/prd.yaml\`) and run \`yoke run\` again.`);
  const text = current.toString('utf8');
  const next = setStoryPasses(text, story, true);
  if (next === null) throw new YokeError('workspace', `.loop/prd.yaml has no story ${story} any more, so yoke cannot mark it passed; put it back and run \`yoke run\` again.`);
  if (next !== text) {
    const mode = (await stat(path)).mode & 0o7777;
    await writeFileAtomic(path, Buffer.from(next), mode);
  }
  return putBlob(ctx.loopDir, Buffer.from(next));
}

/** Append `entry` to DECISIONS.md when `.yoke/context/` exists and the ledger does not already end with it; the text before, for undoing. */
async function appendEntry(root: string, entry: EffectParams<'story.pass'>['decision']): Promise<{ path: string; before: Buffer } | null> {
  const dir = join(root, CONTEXT_DIR);
  const isDir = await stat(dir).then((s) => s.isDirectory(), () => false);
  if (!isDir) return null;
  const path = join(dir, 'DECISIONS.md');
  const before = await readFile(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return Buffer.alloc(0);
    throw error;
  });
  const text = before.toString('utf8');
  if (text.endsWith(entry)) return null;
  await writeFileAtomic(path, Buffer.from(appendDecision(text, entry)));
  return { path, before };
}
