// Where HEAD is (branch and commit), and whether a commit yoke expects is still on it: the facts
// behind "the agent moved HEAD" (issue 20, item 8).
//
// One git process in the common case (HEAD is where yoke left it): `rev-parse` names the commit and
// the ref; only a HEAD that moved costs a second one (`merge-base --is-ancestor`), and only an
// unborn branch a `symbolic-ref`.
import { gitError, gitExitCode, spawnGit } from './run-git.js';

/** HEAD as git reports it: the branch it names (null when detached) and its commit (null on an unborn branch). */
export interface HeadState {
  branch: string | null;
  sha: string | null;
}

/** HEAD now, and the expected commit when it is no longer HEAD or one of HEAD's ancestors. */
export interface HeadCheck extends HeadState {
  /** the expected commit, when HEAD no longer contains it (reset, rebased, amended away); else null */
  lost: string | null;
}

const BRANCH_REF = 'refs/heads/';

/** HEAD's branch and commit. */
export async function readHead(root: string): Promise<HeadState> {
  const args = ['rev-parse', 'HEAD', '--symbolic-full-name', 'HEAD'];
  const result = await spawnGit(root, args);
  if (result.exitCode === 0) {
    const [sha = '', ref = ''] = result.stdout.split('\n');
    return { branch: ref.startsWith(BRANCH_REF) ? ref.slice(BRANCH_REF.length) : null, sha: sha || null };
  }
  // An unborn branch has no commit to parse: ask which branch HEAD names.
  const branch = await spawnGit(root, ['symbolic-ref', '-q', '--short', 'HEAD']);
  if (branch.exitCode === null || branch.exitCode > 1) throw gitError(root, args, result);
  return { branch: branch.stdout.trim() || null, sha: null };
}

/** HEAD's branch and commit, and whether `expectedSha` (if given) is still HEAD or one of its ancestors. */
export async function checkHead(root: string, expectedSha: string | null = null): Promise<HeadCheck> {
  const head = await readHead(root);
  if (expectedSha === null || head.sha === expectedSha) return { ...head, lost: null };
  // A commit git no longer knows (garbage-collected) is not on HEAD either: exit 128 counts as lost.
  const kept = head.sha !== null && (await gitExitCode(root, ['merge-base', '--is-ancestor', expectedSha, head.sha])) === 0;
  return { ...head, lost: kept ? null : expectedSha };
}

