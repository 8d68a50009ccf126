// `candidate.reject`: a candidate the integration lane refused is kept under a ref, never lost (DESIGN §10).
import type { EffectHandler } from '../handler.js';
import { runGit } from '../git/run-git.js';
import { mainTree } from '../../config/lane-worktree-path.js';

/** `refs/yoke/<run>/rejected/<story>/<attempt>` → the candidate. This effect's journaled params are the record DESIGN §10 calls `candidate.rejected {story, files, gate}` (plus lane, attempt, candidate, output). */
export const rejectCandidate: EffectHandler<'candidate.reject'> = {
  policy: 'retry',
  async execute(params, ctx) {
    const kept = `refs/yoke/${ctx.run}/rejected/${params.story}/${params.attempt}`;
    await runGit(mainTree(ctx).root, ['update-ref', kept, params.candidate]);
    return { kept };
  },
};
