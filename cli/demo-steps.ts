// The steps every `yoke demo` takes: a throwaway git repository, yoke run as a user would, the timeline.
import { execFileSync, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { findRun } from '../store/fold/journal-runs.js';
import { replayRun } from '../store/projections/replay-steps.js';
import { readWorkspace } from '../store/session/read-workspace.js';
import { workspacePaths } from '../store/session/workspace-paths.js';
import { renderTimeline } from './timeline.js';

/** Run git in the demo repository; its stdout. */
export function demoGit(cwd: string, args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8' });
}

/** A new repository with a demo identity and `files` in its first commit. */
export function demoRepository(dir: string, files: Readonly<Record<string, string>>): void {
  demoGit(dir, ['init', '-q']);
  demoGit(dir, ['config', 'user.name', 'yoke demo']);
  demoGit(dir, ['config', 'user.email', 'demo@yoke.invalid']);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  demoGit(dir, ['add', '-A']);
  demoGit(dir, ['commit', '-qm', 'initial']);
}

/** Run this yoke (`yoke` is the bundle's path) in `cwd` with the terminal attached; its exit code. */
export function demoYoke(yoke: string, cwd: string, args: string[]): number {
  const result = spawnSync(process.execPath, [yoke, ...args], { cwd, stdio: 'inherit' });
  return result.status ?? 1;
}

/** Print the latest run's timeline, folded from the journal. */
export async function printDemoTimeline(dir: string): Promise<void> {
  process.stdout.write('\nTimeline of the run (folded from .loop/.journal/journal.jsonl):\n');
  const { records } = await readWorkspace(workspacePaths(dir));
  for (const line of renderTimeline(replayRun(records, findRun(records)))) process.stdout.write(`${line}\n`);
}
