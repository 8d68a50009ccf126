// Before `yoke run` reads yoke.conf: a stash command working in `.loop/` right now, or one a crash cut
// short, explains a missing conf better than "yoke.conf does not exist" (issue 20, item 12).
import { existsSync } from 'node:fs';
import { relative } from 'node:path';
import { YokeError } from '../../errors/yoke-error.js';
import type { JournalRecord } from '../journal/record.js';
import type { SettleReport } from '../stash/stash-recovery.js';
import { foldStashIndex } from '../stash/stash-index.js';
import { openWorkspace } from './open-workspace.js';
import { openJournalStore } from './open-store.js';
import type { WorkspacePaths } from './workspace-paths.js';

/** Commands that move `.loop/` in and out of the stash. */
const STASH_COMMANDS = ['yoke stash', 'yoke clean', 'yoke mode'];

/**
 * Refuse (exit 3) while a live stash command holds the workspace: it is moving `.loop/`, so the
 * spec files may be gone for a moment; wait for it. A stash command that began and never ended (it
 * was killed mid-restore) is finished, or rolled back, here, exactly as the next stash command
 * would: returns what settling did (null when nothing was pending), and the caller reads again.
 */
export async function settleBeforeRun(paths: WorkspacePaths, records: readonly JournalRecord[], warn: (message: string) => void): Promise<SettleReport | null> {
  const store = openJournalStore(paths);
  const holder = await store.lease.holder();
  if (holder && holder.pid !== process.pid && store.lease.isLive(holder) && STASH_COMMANDS.some((command) => holder.command.startsWith(command))) {
    throw new YokeError(
      'workspace',
      `a stash operation (\`${holder.command}\`, pid ${holder.pid}) is moving the files of .loop/ right now; wait for it to finish, then run \`yoke run\` again.`,
    );
  }
  const open = foldStashIndex(records, (seq) => store.recordLocation(seq)).open;
  if (open === null) return null;
  // Opening the workspace finishes or rolls back the interrupted operation (store/stash/stash-recovery.ts).
  const session = await openWorkspace(paths, { command: 'yoke run', warn, onStale: () => undefined });
  const settled = session.settled;
  await session.close();
  return settled;
}

/**
 * Refuse (exit 2) a new run whose `.loop/yoke.conf` is missing because `.loop/` is in the stash: say
 * so, and that `yoke stash pop` brings it back, rather than "yoke.conf does not exist; run yoke
 * init". Nothing to say when the conf is there or no entry waits to be popped.
 */
export function refuseStashedWorkspace(paths: WorkspacePaths, records: readonly JournalRecord[]): void {
  if (existsSync(paths.conf)) return;
  const waiting = foldStashIndex(records, (seq) => `journal record ${seq}`).entries.filter((entry) => !entry.popped);
  const newest = waiting.at(-1);
  if (newest === undefined) return;
  const conf = relative(process.cwd(), paths.conf) || paths.conf;
  const message = (newest.message ?? '').split('\n')[0] ?? '';
  const described = `${newest.id.slice(0, 12)}${message === '' ? '' : ` "${message}"`}, ${newest.mode}`;
  throw new YokeError(
    'usage',
    `${conf} does not exist because .loop/ is in the stash (the newest entry ${described}${waiting.length > 1 ? `, and ${waiting.length - 1} more` : ''}); bring it back with \`yoke stash pop\` (\`yoke stash list\` shows every entry), or start a new workspace with \`yoke init <mode>\`.`,
  );
}
