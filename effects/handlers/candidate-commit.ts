// `candidate.commit`: a lane's work outside `.loop/` as one commit on its branch: the candidate (DESIGN §10).
import type { EffectHandler } from '../handler.js';
import { runGit } from '../git/run-git.js';
import { laneGit, revParse, treeOf } from '../worktree/lane-git.js';

/**
 * `git add -A` of everything but `.loop/` (each lane's notes and guard results stay its own, so two
 * candidates never conflict over them), then one commit with the trailers Yoke-Story, Yoke-Run and
 * Yoke-Effect (empty when the work changed nothing outside `.loop/`). A lane whose HEAD already moved
 * past `base` committed before a crash: that commit is the candidate (`retry`).
 */
export const commitCandidate: EffectHandler<'candidate.commit'> = {
  policy: 'retry',
  async execute(params, ctx) {
    const head = await revParse(ctx.root, 'HEAD');
    if (head === params.base) {
      await runGit(ctx.root, ['add', '-A', '--', '.', ':(exclude).loop']);
      const message = `${params.message.trimEnd()}\n\nYoke-Story: ${params.story}\nYoke-Run: ${ctx.run}\nYoke-Effect: ${ctx.key}\n`;
      const committed = await laneGit(ctx.root, ['commit', '-q', '--no-verify', '--allow-empty', '--cleanup=whitespace', '-m', message]);
      if (committed.exitCode !== 0) throw new Error(`could not commit ${params.story}'s candidate: ${committed.stderr.trim()}`);
    }
    const sha = await revParse(ctx.root, 'HEAD');
    return { sha, tree: await treeOf(ctx.root, sha) };
  },
};
