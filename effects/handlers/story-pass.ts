// `story.pass`: a story passed, materialized in one commit: `passes: true` in prd.yaml, its DECISIONS.md entry and the work.
import { rm, stat } from 'node:fs/promises';
import { setStoryPasses } from '../../config/prd/set-story-passes.js';
import type { EffectContext, EffectHandler } from '../handler.js';
import { appendPendingDecision, settleDecision } from '../context/decision-ledger.js';
import { getBlob, putBlob } from '../fs/blob-store.js';
import { loopPath } from '../fs/loop-path.js';
import { readOptionalFile } from '../fs/read-optional-file.js';
import { writeFileAtomic } from '../fs/write-file-atomic.js';
import { YokeError } from '../../errors/yoke-error.js';
import type { EffectParams } from '../../machines/effects.js';
import { commitProject, reconcileCommit } from './commit-create.js';

/**
 * Write `passes: true` for the story into `.loop/prd.yaml`, append the decision entry to
 * `.yoke/context/DECISIONS.md` when `.yoke/context/` exists (never creating it), then commit
 * everything with the trailers Yoke-Run, Yoke-Effect and Yoke-Story.
 *
 * The flag goes onto prd.yaml as the run holds it when the pass runs (`heldSpecFiles`; the request's
 * `spec` otherwise), so nothing an agent did to the file (another story's flag, a deleted file) is
 * committed or counted, and the user's edit journaled as the run resumed after the pass was decided
 * is kept (named in the result's `base`); runs journaled without `spec` set it on the working file,
 * as they did.
 *
 * Each step is idempotent, so a retry after a crash between them ends with one commit: the flag is
 * set from the same text, the entry is appended to the ledger as it was before the first try (kept
 * under `.loop/.journal/decisions/`), and `reconcile` finds a commit that carries this effect's
 * trailer instead of committing twice. If the commit fails, prd.yaml and the ledger are put back:
 * no flag or entry is left without its commit.
 */
export const passStory: EffectHandler<'story.pass'> = {
  policy: 'reconcile',
  async execute(params, ctx) {
    const path = loopPath(ctx.loopDir, 'prd.yaml');
    const before = await readOptionalFile(path);
    const materialized = await materializePasses(params, ctx);
    const pending = await appendPendingDecision(ctx.root, ctx.loopDir, ctx.key, params.decision);
    if (!params.commit) {
      await pending?.settle();
      return { sha: null, ...materialized };
    }
    let result: Awaited<ReturnType<typeof commitProject>>;
    try {
      result = await commitProject(params, ctx, [`Yoke-Story: ${params.story}`]);
    } catch (error) {
      await pending?.undo();
      if (before === null) await rm(path, { force: true });
      else await writeFileAtomic(path, before);
      throw error;
    }
    await pending?.settle();
    return { ...result, ...materialized };
  },
  async reconcile(params, ctx) {
    if (!params.commit) return null;
    const found = await reconcileCommit(params, ctx);
    if (found === null) return null;
    await settleDecision(ctx.loopDir, ctx.key);
    // The commit holds prd.yaml with the flag set: the spec backup is that content (with the
    // user's edit journaled since on top, left for a later commit).
    return { ...found, ...(await materializePasses(params, ctx)) };
  },
};

/**
 * Set the story's flag on prd.yaml as the run holds it now (`spec`, or the newer blob of an edit
 * journaled since, returned as `base`; the working file in runs journaled without `spec`), write
 * that into `.loop/prd.yaml` when it differs, and store it as the new spec blob.
 */
async function materializePasses(params: EffectParams<'story.pass'>, ctx: EffectContext): Promise<{ prdBlob: string; base?: string }> {
  const { story } = params;
  const path = loopPath(ctx.loopDir, 'prd.yaml');
  const current = await readOptionalFile(path);
  const held = params.spec === undefined ? undefined : heldBlob(params.spec, ctx);
  const base = held === undefined ? current : await getBlob(ctx.loopDir, held);
  if (base === null) throw new YokeError('workspace', `.loop/prd.yaml is missing while story ${story} passes; restore it (\`git checkout -- .loop/prd.yaml\`) and run \`yoke run\` again.`);
  const text = base.toString('utf8');
  const next = setStoryPasses(text, story, true);
  if (next === null) throw new YokeError('workspace', `.loop/prd.yaml has no story ${story} any more, so yoke cannot mark it passed; put it back and run \`yoke run\` again.`);
  const content = Buffer.from(next);
  if (current === null || !current.equals(content)) {
    const mode = current === null ? undefined : (await stat(path)).mode & 0o7777;
    await writeFileAtomic(path, content, mode);
  }
  const prdBlob = await putBlob(ctx.loopDir, content);
  return held === undefined || held === params.spec ? { prdBlob } : { prdBlob, base: held };
}

/** prd.yaml's blob as the run holds it when the pass runs: `decided` (the request's `spec`) unless an edit journaled since made a newer one. */
function heldBlob(decided: string, ctx: Pick<EffectContext, 'heldSpecFiles'>): string {
  const now = ctx.heldSpecFiles?.['prd.yaml'];
  return typeof now === 'string' ? now : decided;
}
