// `commit.create`: commit the project's changes, marked with Yoke-Run / Yoke-Effect trailers.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { EffectContext, EffectHandler } from './handler.js';
import { gitExitCode, runGit } from './run-git.js';

/** Identity used when git has none configured, so a run never fails for lack of `user.name`. */
const FALLBACK_NAME = 'yoke';
const FALLBACK_EMAIL = 'yoke@localhost';

/**
 * `git add -A` (the project's and `.loop/.gitignore` decide what is left out; `.loop/.journal` and
 * `.loop/.stash` never go in), then, when anything is staged, `git commit --no-verify` with the
 * message, a blank line and the trailers `Yoke-Run: <run>` and `Yoke-Effect: <key>`. Result: the
 * new commit's sha, or null when there was nothing to commit. On restart (`reconcile`), a commit
 * carrying this effect's trailer is found instead of committing twice.
 */
export const createCommit: EffectHandler<'commit.create'> = {
  policy: 'reconcile',
  async execute(params, ctx) {
    await runGit(ctx.root, ['add', '-A']);
    // `.loop/.gitignore` normally keeps yoke's folders out; if it no longer does, unstage them.
    // (An exclude pathspec would not do: git refuses one that names an ignored folder.)
    if (!(await loopIgnoresPrivateFolders(ctx.loopDir))) {
      await runGit(ctx.root, ['rm', '-r', '-q', '--cached', '--ignore-unmatch', '--', '.loop/.journal', '.loop/.stash']);
    }
    if ((await gitExitCode(ctx.root, ['diff', '--cached', '--quiet'])) === 0) return { sha: null };
    const message = `${params.message.trimEnd()}\n\nYoke-Run: ${ctx.run}\nYoke-Effect: ${ctx.key}\n`;
    // --cleanup=whitespace keeps lines starting with '#' (markdown headings in messages).
    await runGit(ctx.root, ['commit', '--no-verify', '--cleanup=whitespace', '-F', '-'], {
      input: message,
      env: await fallbackIdentity(ctx.root),
    });
    return { sha: (await runGit(ctx.root, ['rev-parse', 'HEAD'])).trim() };
  },
  async reconcile(_params, ctx) {
    // null means "it never happened": the runner then executes the commit. `{ sha: null }` would
    // claim a completed commit with nothing in it and silently lose the iteration's changes.
    const sha = await findEffectCommit(ctx);
    return sha === null ? null : { sha };
  },
};

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

/** Does `.loop/.gitignore` list both `.journal/` and `.stash/` (as `yoke init` writes it)? */
async function loopIgnoresPrivateFolders(loopDir: string): Promise<boolean> {
  const text = await readFile(join(loopDir, '.gitignore'), 'utf8').catch(() => '');
  const lines = new Set(text.split('\n').map((line) => line.trim()));
  return ['.journal', '.stash'].every((name) => lines.has(`${name}/`) || lines.has(name) || lines.has(`/${name}/`) || lines.has(`/${name}`));
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
  for (const role of ['AUTHOR', 'COMMITTER'] as const) {
    if ((await gitExitCode(root, ['var', `GIT_${role}_IDENT`])) !== 0) {
      env[`GIT_${role}_NAME`] = FALLBACK_NAME;
      env[`GIT_${role}_EMAIL`] = FALLBACK_EMAIL;
    }
  }
  return env;
}
