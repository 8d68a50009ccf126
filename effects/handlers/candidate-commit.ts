// `candidate.commit`: a lane's work outside `.loop/` as one commit on its branch: the candidate (DESIGN §10).
import type { EffectHandler } from '../handler.js';
import { runGit, spawnGit } from '../git/run-git.js';
import { laneGit, revParse, treeOf } from '../worktree/lane-git.js';

/** Is `sha` this effect's own commit (its Yoke-Effect trailer names `key`)? */
async function madeBy(root: string, sha: string, key: string): Promise<boolean> {
  const shown = await spawnGit(root, ['show', '-s', '--format=%B', sha]);
  return shown.exitCode === 0 && shown.stdout.includes(`\nYoke-Effect: ${key}\n`);
}

/**
 * `git add -A` of everything but `.loop/` (each lane's notes and guard results stay its own, so two
 * candidates never conflict over them), then one commit on `base` with the trailers Yoke-Story,
 * Yoke-Run and Yoke-Effect (empty when the work changed nothing outside `.loop/`). A lane whose HEAD
 * already holds this effect's commit made it before a crash: that commit is the candidate (`retry`).
 * Commits the worker made itself are folded into the one candidate (`git reset --soft <base>`), so
 * the candidate is exactly the working tree as the lane's gates saw it, protected files restored
 * included, and the story still lands as one commit.
 */
export const commitCandidate: EffectHandler<'candidate.commit'> = {
  policy: 'retry',
  async execute(params, ctx) {
    const head = await revParse(ctx.root, 'HEAD');
    if (head === params.base || !(await madeBy(ctx.root, head, ctx.key))) {
      if (head !== params.base) {
        await runGit(ctx.root, ['reset', '-q', '--soft', params.base]);
        // what the worker's commits staged under .loop/ goes back to the base: it is never part of a candidate
        await spawnGit(ctx.root, ['reset', '-q', params.base, '--', '.loop']);
      }
      await runGit(ctx.root, ['add', '-A', '--', '.', ':(exclude).loop']);
      const message = `${params.message.trimEnd()}\n\nYoke-Story: ${params.story}\nYoke-Run: ${ctx.run}\nYoke-Effect: ${ctx.key}\n`;
      const committed = await laneGit(ctx.root, ['commit', '-q', '--no-verify', '--allow-empty', '--cleanup=whitespace', '-m', message]);
      if (committed.exitCode !== 0) throw new Error(`could not commit ${params.story}'s candidate: ${committed.stderr.trim()}`);
    }
    const sha = await revParse(ctx.root, 'HEAD');
    return { sha, tree: await treeOf(ctx.root, sha) };
  },
};
