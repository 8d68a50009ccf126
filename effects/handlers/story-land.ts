// `story.land`: an integrated candidate becomes the target's next commit, with `passes: true` and its decision entry (DESIGN §10).
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { EffectHandler } from '../handler.js';
import { setStoryPasses } from '../../config/prd/set-story-passes.js';
import { appendDecision } from '../../machines/context/decision-entry.js';
import type { EffectParams } from '../../machines/effects.js';
import { YokeError } from '../../errors/yoke-error.js';
import { putBlob } from '../fs/blob-store.js';
import { readHead } from '../git/head-state.js';
import { runGit, spawnGit } from '../git/run-git.js';
import { workingTreeChanges } from '../git/working-tree-changes.js';
import { contains, laneGit, revParse, showFile } from '../worktree/lane-git.js';
import { cutShortFastForward, finishFastForward } from '../worktree/cut-short-fast-forward.js';
import { mainTree } from '../../config/lane-worktree-path.js';

const PRD = '.loop/prd.yaml';
const DECISIONS = '.yoke/context/DECISIONS.md';

/**
 * In the lane's worktree, the candidate commit is amended with prd.yaml's `passes: true` for the
 * story and (when `.yoke/context/` is in it) the decision entry appended to DECISIONS.md: work, flag
 * and entry land in one commit. Then the main working tree, which must still be clean and on the
 * target at `from`, fast-forwards to it (`git merge --ff-only`). Anything else changing the main
 * working tree during the run stops it (exit 3) with what to do. On restart (`reconcile`), a commit
 * of this run and story already on the target is the result. A fast-forward a kill cut short (the
 * main working tree already holds the lane's commit, the branch is still at `from`) is finished by
 * moving the branch. Otherwise it is done again from the candidate, which gives the same content.
 */
export const landStory: EffectHandler<'story.land'> = {
  policy: 'reconcile',
  async execute(params, ctx) {
    const main = mainTree(ctx);
    await refuseMovedTarget(main.root, params);
    const prd = await showFile(ctx.root, params.candidate, PRD);
    const next = prd === null ? null : setStoryPasses(prd, params.story, true);
    if (prd !== null && next === null) throw new YokeError('workspace', `${PRD} on the target has no story ${params.story} any more, so yoke cannot mark it passed; put it back and run \`yoke run\` again.`);
    const reset = await spawnGit(ctx.root, ['reset', '-q', '--soft', params.candidate]);
    if (reset.exitCode !== 0) throw new Error(`could not go back to ${params.story}'s candidate: ${reset.stderr.trim()}`);
    const staged: string[] = [];
    if (next !== null) {
      await writeFile(join(ctx.root, PRD), next);
      staged.push(PRD);
    }
    const ledger = await showFile(ctx.root, params.candidate, DECISIONS);
    const hasLayer = ledger !== null || (await spawnGit(ctx.root, ['cat-file', '-e', `${params.candidate}:.yoke/context`])).exitCode === 0;
    if (hasLayer) {
      await mkdir(dirname(join(ctx.root, DECISIONS)), { recursive: true });
      await writeFile(join(ctx.root, DECISIONS), appendDecision(ledger, params.decision));
      staged.push(DECISIONS);
    }
    if (staged.length > 0) {
      await runGit(ctx.root, ['add', '--', ...staged]);
      const amended = await laneGit(ctx.root, ['commit', '-q', '--amend', '--no-edit', '--no-verify', '--allow-empty']);
      if (amended.exitCode !== 0) throw new Error(`could not add ${params.story}'s passes and decision to its commit: ${amended.stderr.trim()}`);
    }
    const sha = await revParse(ctx.root, 'HEAD');
    const merged = await spawnGit(main.root, ['merge', '-q', '--ff-only', sha]);
    if (merged.exitCode !== 0) {
      throw new YokeError('workspace', `the target ${params.target} could not fast-forward to story ${params.story}'s commit ${sha.slice(0, 12)}: ${merged.stderr.trim()}; make the main working tree clean on ${params.target} again and run \`yoke run\`.`);
    }
    return { sha, prdBlob: await putBlob(main.loopDir, Buffer.from(next ?? '')) };
  },
  async reconcile(params, ctx) {
    const main = mainTree(ctx);
    const found = await spawnGit(main.root, ['log', '--format=%H', '--all-match', '--grep', `^Yoke-Story: ${params.story}$`, '--grep', `^Yoke-Run: ${ctx.run}$`, `${params.from}..${params.target}`]);
    let sha = found.exitCode === 0 ? found.stdout.split('\n')[0]?.trim() ?? '' : '';
    if (sha === '') {
      // Killed inside `git merge --ff-only`: the main working tree holds the commit, the branch has not moved yet.
      const cut = await cutShortFastForward(main.root, ctx.root, params, ctx.run);
      if (cut === null) return null;
      await finishFastForward(main.root, params, cut);
      ctx.warn(`finished landing story ${params.story} on ${params.target}: a crash had stopped its fast-forward halfway`);
      sha = cut;
    }
    const prd = (await showFile(main.root, sha, PRD)) ?? '';
    return { sha, prdBlob: await putBlob(main.loopDir, Buffer.from(prd)) };
  },
};

/** The main working tree must be clean, on the target, at the commit the run last left it. */
async function refuseMovedTarget(root: string, params: EffectParams<'story.land'>): Promise<void> {
  const head = await readHead(root);
  const changes = await workingTreeChanges(root);
  if (head.branch !== params.target || (head.sha !== params.from && !(head.sha !== null && (await contains(root, head.sha, params.from))))) {
    throw new YokeError('workspace', `the main working tree is no longer on ${params.target} at ${params.from.slice(0, 12)} (HEAD is ${head.branch ?? 'detached'} at ${head.sha?.slice(0, 12) ?? 'nothing'}); check out ${params.target} again and run \`yoke run\`.`);
  }
  if (head.sha !== params.from) {
    throw new YokeError('workspace', `someone committed on ${params.target} during the parallel run (it moved from ${params.from.slice(0, 12)} to ${head.sha?.slice(0, 12) ?? '?'}); yoke integrates only onto the commit it left: reset ${params.target} to ${params.from.slice(0, 12)} (keep your commits on another branch) and run \`yoke run\`.`);
  }
  if (changes.length > 0) {
    throw new YokeError('workspace', `the main working tree changed during the parallel run (${changes.slice(0, 5).join(', ')}); commit or stash those changes elsewhere (\`git stash -u\`) and run \`yoke run\` again.`);
  }
}

