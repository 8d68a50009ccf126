// Which commit landed each story: the newest commit on HEAD with a `Yoke-Story: <id>` trailer.
import { spawnGit } from './run-git.js';

/** Story id → full sha of the newest commit carrying its `Yoke-Story` trailer; empty before the first commit or outside git. */
export async function storyCommits(root: string): Promise<Map<string, string>> {
  const result = await spawnGit(root, ['log', '--format=%H%x1f%(trailers:key=Yoke-Story,valueonly,separator=%x1f)%x1e', 'HEAD']);
  const commits = new Map<string, string>();
  if (result.exitCode !== 0) return commits;
  for (const entry of result.stdout.split('\x1e')) {
    const [sha, ...ids] = entry.trim().split('\x1f');
    if (sha === undefined || sha === '') continue;
    for (const id of ids) {
      const trimmed = id.trim();
      if (trimmed !== '' && !commits.has(trimmed)) commits.set(trimmed, sha);
    }
  }
  return commits;
}
