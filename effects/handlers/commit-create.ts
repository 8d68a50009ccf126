// `commit.create`: commit the project's changes, marked with Yoke-Run / Yoke-Effect trailers.
import { access, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { EffectContext, EffectHandler } from '../handler.js';
import { gitError, gitExitCode, runGit, spawnGitScript } from '../git/run-git.js';
import { PRIVATE_FOLDERS } from '../../config/workspace-layout.js';
import { checkHead, REV_PARSE_HEAD } from '../git/head-state.js';
import { YokeError } from '../../errors/yoke-error.js';
import type { EffectParams, EffectResult } from '../../machines/effects.js';
import { appendPendingDecision, settleDecision } from '../context/decision-ledger.js';

/** Identity used when git has none configured, so a run never fails for lack of `user.name`. */
const FALLBACK_NAME = 'yoke';
const FALLBACK_EMAIL = 'yoke@localhost';

/**
 * `git add -A` (the project's and `.loop/.gitignore` decide what is left out; `.loop/.journal` and
 * `.loop/.stash` never go in), then `git commit --no-verify` with the message, a blank line and the
 * trailers `Yoke-Run: <run>` and `Yoke-Effect: <key>`. Result: the new commit's sha (read from the
 * commit's own summary line), or null when nothing was staged. On restart (`reconcile`), a commit
 * carrying this effect's trailer is found instead of committing twice.
 *
 * When the params say where HEAD must be, yoke never commits elsewhere: HEAD on another branch (or
 * detached), or no longer containing the run's last commit, refuses the workspace (exit 3) with
 * the way back; after the fix, `yoke run` reconciles and commits. A commit found by `reconcile`
 * must be on the run's branch too, or the same refusal names it.
 *
 * With `decision` (DESIGN §9), the entry is appended to `.yoke/context/DECISIONS.md` first (only
 * when that folder exists) so that it is staged with the work; when the commit fails or commits
 * nothing, the ledger is put back as it was, so no entry is ever left without its commit.
 */
export const createCommit: EffectHandler<'commit.create'> = {
  policy: 'reconcile',
  async execute(params, ctx) {
    // DESIGN §9: the decision entry goes in with the work, or not at all.
    const pending = params.decision === undefined ? null : await appendPendingDecision(ctx.root, ctx.loopDir, ctx.key, params.decision.entry);
    let result: EffectResult<'commit.create'>;
    try {
      result = await commitProject(params, ctx);
    } catch (error) {
      await pending?.undo();
      throw error;
    }
    if (result.sha === null) await pending?.undo();
    else await pending?.settle();
    return result;
  },
  async reconcile(params, ctx) {
    // null means "it never happened": the runner then executes the commit. `{ sha: null }` would
    // claim a completed commit with nothing in it and silently lose the iteration's changes.
    const sha = await findEffectCommit(ctx);
    if (sha === null) return null;
    // The commit happened before a crash; it counts only if it is still on the run's branch.
    if (params.head !== undefined) await refuseMovedHead(ctx.root, params.head, sha);
    if (params.decision !== undefined) await settleDecision(ctx.loopDir, ctx.key);
    return onBranch(params, sha);
  },
};

/** Where a commit must go, and its message (the trailers are added). */
export type CommitRequest = Pick<EffectParams<'commit.create'>, 'message' | 'head'>;

/**
 * Stage everything and commit it as `commit.create` does (without the decision entry's bookkeeping);
 * `trailers` (`Yoke-Story: S1`) go before Yoke-Run and Yoke-Effect.
 */
export async function commitProject(params: CommitRequest, ctx: EffectContext, trailers: readonly string[] = []): Promise<{ sha: string | null; branch?: string | null }> {
  // Asked once per project, alongside the first `git add`.
  const known = Promise.all([gitFacts(ctx.root), fallbackIdentity(ctx.root)]);
  known.catch(() => undefined);
  // HEAD exactly where yoke left it is checked inside the commit's own script; anything else
  // (no commit yet, commits added on top, a real move) gets the full check here.
  let precheck = params.head === undefined ? null : expectedRevParse(params.head);
  if (params.head !== undefined && precheck === null) await refuseMovedHead(ctx.root, params.head, params.head.sha);
  const message = `${params.message.trimEnd()}\n\n${trailers.map((line) => `${line}\n`).join('')}Yoke-Run: ${ctx.run}\nYoke-Effect: ${ctx.key}\n`;
  // `.loop/.gitignore` normally keeps yoke's folders out; if it no longer does, unstage them.
  // (An exclude pathspec would not do: git refuses one that names an ignored folder.)
  const unstage = !(await loopIgnoresPrivateFolders(ctx.loopDir));
  const [git, identity] = await known;
  // --cleanup=whitespace keeps lines starting with '#' (markdown headings in messages).
  // core.abbrev=no makes the summary line `[branch <full sha>] subject` name the commit.
  const args = [...(git.fullAbbrev ? ['-c', 'core.abbrev=no'] : []), 'commit', '--no-verify', '--cleanup=whitespace', '-F', '-'];
  // With a merge in progress `git commit` would conclude it even with nothing staged: ask first.
  if (await exists(git.mergeHead)) {
    if (params.head !== undefined && precheck !== null) await refuseMovedHead(ctx.root, params.head, params.head.sha);
    precheck = null;
    await runGit(ctx.root, ['add', '-A']);
    if (unstage) await runGit(ctx.root, UNSTAGE_PRIVATE);
    if (await nothingStaged(ctx.root)) return onBranch(params, null);
  }
  const commit = (expected: string | null): ReturnType<typeof spawnGitScript> =>
    spawnGitScript(ctx.root, ADD_THEN_COMMIT, [expected ?? '-', unstage ? 'unstage' : 'keep', ...args], { input: message, env: identity });
  let result = await commit(precheck);
  if (result.exitCode === HEAD_NOT_AS_LEFT && params.head !== undefined) {
    await refuseMovedHead(ctx.root, params.head, params.head.sha);
    result = await commit(null); // only commits added on top: nothing is lost, commit on them
  }
  if (result.exitCode === STAGING_FAILED) throw gitError(ctx.root, ['add', '-A'], result);
  if (result.exitCode !== 0) {
    if (result.exitCode !== null && (await nothingStaged(ctx.root))) return onBranch(params, null);
    throw gitError(ctx.root, args, result);
  }
  return onBranch(params, summarySha(result.stdout) ?? (await runGit(ctx.root, ['rev-parse', 'HEAD'])).trim());
}

/** The commit this effect made before a crash (on the run's branch), or null when it never happened. */
export async function reconcileCommit(params: CommitRequest, ctx: EffectContext): Promise<{ sha: string | null; branch?: string | null } | null> {
  const sha = await findEffectCommit(ctx);
  if (sha === null) return null;
  if (params.head !== undefined) await refuseMovedHead(ctx.root, params.head, sha);
  return onBranch(params, sha);
}

/** The result, naming the run's branch when the params say which it is. */
function onBranch(params: CommitRequest, sha: string | null): { sha: string | null; branch?: string | null } {
  return params.head === undefined ? { sha } : { sha, branch: params.head.branch };
}

/** Throws the refusal when HEAD is not on `expected.branch` or no longer contains `sha`. */
async function refuseMovedHead(root: string, expected: { branch: string | null }, sha: string | null): Promise<void> {
  const now = await checkHead(root, sha);
  const where = (branch: string | null): string => (branch === null ? 'a detached HEAD' : `branch \`${branch}\``);
  if (now.branch !== expected.branch) {
    const back = expected.branch === null ? `\`git checkout --detach ${sha ?? 'HEAD'}\`` : `\`git checkout ${expected.branch}\``;
    throw new YokeError('workspace', `HEAD is on ${where(now.branch)}, but this run commits onto ${where(expected.branch)}, so yoke did not commit; switch back with ${back} and run \`yoke run\` again.`);
  }
  if (now.lost !== null) {
    throw new YokeError('workspace', `commit ${now.lost} is no longer on ${where(expected.branch)} (HEAD is ${now.sha ?? 'unborn'}), so yoke did not commit on top; bring it back with \`git reset --keep ${now.lost}\` and run \`yoke run\` again, or start over with \`yoke run --fresh\`.`);
  }
}

/** The sha of a commit (on any ref) whose message has the line `Yoke-Effect: <key>` exactly, else null. */
async function findEffectCommit(ctx: EffectContext): Promise<string | null> {
  const trailer = `Yoke-Effect: ${ctx.key}`;
  const out = await runGit(ctx.root, ['log', '--all', '-z', '-F', `--grep=${trailer}`, '--format=%H%n%B']);
  for (const entry of out.split('\0')) {
    const [sha, ...lines] = entry.split('\n');
    // --grep matches substrings (key …/1/0 would match …/1/01): insist on the whole line.
    if (sha && lines.some((line) => line.trimEnd() === trailer)) return sha;
  }
  return null;
}

/** `git rm --cached` of yoke's private folders, for when `.loop/.gitignore` no longer ignores them. */
const UNSTAGE_PRIVATE = ['rm', '-r', '-q', '--cached', '--ignore-unmatch', '--', '.loop/.journal', '.loop/.stash'];

/** Exit status of ADD_THEN_COMMIT when staging failed (git itself exits 0, 1, 128, 129 or 128+signal). */
const STAGING_FAILED = 125;
/** Exit status of ADD_THEN_COMMIT when HEAD is not exactly where `$1` says (nothing was staged). */
const HEAD_NOT_AS_LEFT = 124;

/** What `git rev-parse HEAD --symbolic-full-name HEAD` prints (newlines as spaces) for the expected HEAD; null without a commit. */
function expectedRevParse(head: { branch: string | null; sha: string | null }): string | null {
  return head.sha === null ? null : `${head.sha} ${head.branch === null ? 'HEAD' : `refs/heads/${head.branch}`} `;
}

/**
 * Unless `$1` is `-`, stop (HEAD_NOT_AS_LEFT) when HEAD's commit and ref are not `$1`; then
 * `git add -A`, the unstaging when `$2` is `unstage`, then `git <the rest>` (the commit, reading
 * the message from stdin, which `git add` leaves alone): one process started by yoke instead of
 * three.
 */
const ADD_THEN_COMMIT = `if [ "$1" != - ] && [ "$(git ${REV_PARSE_HEAD.join(' ')} 2>/dev/null | tr '\\n' ' ')" != "$1" ]; then exit ${HEAD_NOT_AS_LEFT}; fi
git add -A || exit ${STAGING_FAILED}
if [ "$2" = unstage ]; then git ${UNSTAGE_PRIVATE.join(' ')} || exit ${STAGING_FAILED}; fi
shift 2
exec git "$@"`;

async function exists(path: string): Promise<boolean> {
  return access(path).then(() => true, () => false);
}

/** True when the index has nothing to commit relative to HEAD. */
async function nothingStaged(root: string): Promise<boolean> {
  return (await gitExitCode(root, ['diff', '--cached', '--quiet'])) === 0;
}

/**
 * The commit named by `git commit`'s summary line (`[main (root-commit) <sha>] subject`), when it
 * shows a full object id; else null and the caller asks `rev-parse`. Hooks' output goes to stderr,
 * so the first stdout line is the summary. Branch names hold no spaces, so the first ` <hex>] ` is it.
 */
export function summarySha(stdout: string): string | null {
  const first = stdout.split('\n', 1)[0] ?? '';
  return /^\[.*? ([0-9a-f]{40}|[0-9a-f]{64})\]/.exec(first)?.[1] ?? null;
}

/** Does `.loop/.gitignore` list both `.journal/` and `.stash/` (as `yoke init` writes it)? */
async function loopIgnoresPrivateFolders(loopDir: string): Promise<boolean> {
  const text = await readFile(join(loopDir, '.gitignore'), 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return ''; // no .loop/.gitignore: nothing is listed
    throw error;
  });
  const lines = new Set(text.split('\n').map((line) => line.trim()));
  return PRIVATE_FOLDERS.every((name) => lines.has(`${name}/`) || lines.has(name) || lines.has(`/${name}/`) || lines.has(`/${name}`));
}

/** What commit.create needs to know about the repository and git (asked once per project). */
interface GitFacts {
  /** path of MERGE_HEAD (present while a merge is in progress) */
  mergeHead: string;
  /** git understands `core.abbrev=no` (2.31 and later) */
  fullAbbrev: boolean;
}

const facts = new Map<string, Promise<GitFacts>>();

function gitFacts(root: string): Promise<GitFacts> {
  let known = facts.get(root);
  if (!known) {
    known = Promise.all([runGit(root, ['rev-parse', '--git-path', 'MERGE_HEAD']), runGit(root, ['version'])]).then(([mergeHead, version]) => {
      const [major = 0, minor = 0] = (/(\d+)\.(\d+)/.exec(version) ?? []).slice(1).map(Number);
      return { mergeHead: resolve(root, mergeHead.trim()), fullAbbrev: major > 2 || (major === 2 && minor >= 31) };
    });
    known.catch(() => facts.delete(root));
    facts.set(root, known);
  }
  return known;
}

const identities = new Map<string, Promise<Record<string, string>>>();

/** GIT_AUTHOR_* / GIT_COMMITTER_* for whichever identity git cannot determine on its own (asked once per project). */
function fallbackIdentity(root: string): Promise<Record<string, string>> {
  let known = identities.get(root);
  if (!known) {
    known = probeIdentity(root);
    identities.set(root, known);
  }
  return known;
}

async function probeIdentity(root: string): Promise<Record<string, string>> {
  const env: Record<string, string> = {};
  const roles = ['AUTHOR', 'COMMITTER'] as const;
  const codes = await Promise.all(roles.map((role) => gitExitCode(root, ['var', `GIT_${role}_IDENT`])));
  roles.forEach((role, i) => {
    if (codes[i] !== 0) {
      env[`GIT_${role}_NAME`] = FALLBACK_NAME;
      env[`GIT_${role}_EMAIL`] = FALLBACK_EMAIL;
    }
  });
  return env;
}
