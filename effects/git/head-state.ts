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

/** HEAD from `git rev-parse HEAD --symbolic-full-name HEAD`'s two lines; null when they are not a commit and a ref (an unborn branch). */
export function parseHead(sha: string, ref: string): HeadState | null {
  if (!/^[0-9a-f]{40}([0-9a-f]{24})?$/.test(sha)) return null;
  return { branch: ref.startsWith(BRANCH_REF) ? ref.slice(BRANCH_REF.length) : null, sha };
}

/** The arguments that name HEAD's commit and ref in one git process. */
export const REV_PARSE_HEAD = ['rev-parse', 'HEAD', '--symbolic-full-name', 'HEAD'];

/** HEAD's branch and commit. */
export async function readHead(root: string): Promise<HeadState> {
  const result = await spawnGit(root, REV_PARSE_HEAD);
  const [sha = '', ref = ''] = result.stdout.split('\n');
  const head = result.exitCode === 0 ? parseHead(sha, ref) : null;
  if (head !== null) return head;
  // An unborn branch has no commit to parse: ask which branch HEAD names.
  const branch = await spawnGit(root, ['symbolic-ref', '-q', '--short', 'HEAD']);
  if (branch.exitCode === null || branch.exitCode > 1) throw gitError(root, REV_PARSE_HEAD, result);
  return { branch: branch.stdout.trim() || null, sha: null };
}

/** `head` (HEAD now), and whether `expectedSha` (if given) is still HEAD or one of its ancestors. */
export async function compareHead(root: string, head: HeadState, expectedSha: string | null): Promise<HeadCheck> {
  if (expectedSha === null || head.sha === expectedSha) return { ...head, lost: null };
  // A commit git no longer knows (garbage-collected) is not on HEAD either: exit 128 counts as lost.
  const kept = head.sha !== null && (await gitExitCode(root, ['merge-base', '--is-ancestor', expectedSha, head.sha])) === 0;
  return { ...head, lost: kept ? null : expectedSha };
}

/** HEAD's branch and commit, and whether `expectedSha` (if given) is still HEAD or one of its ancestors. */
export async function checkHead(root: string, expectedSha: string | null = null): Promise<HeadCheck> {
  return compareHead(root, await readHead(root), expectedSha);
}
