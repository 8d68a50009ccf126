// Where yoke keeps its own files inside `.loop/` (DESIGN §1): every `.journal/<sub>` and `.stash`
// path is named here, so the layout is written once and docs/journal.md can list it from one place.
import { join } from 'node:path';

/** yoke's private folders directly under `.loop/` (never committed: `.loop/.gitignore` lists them). */
export const PRIVATE_FOLDERS = ['.journal', '.stash'] as const;

/** `.loop/.gitignore` as `yoke init` writes it (canon/init/loop/gitignore), and as yoke puts it back when it is gone. */
export const LOOP_GITIGNORE = '.journal/\n.stash/\nproof/\n';

/** What lives under `.loop/.journal/`, by purpose. */
export const JOURNAL_LAYOUT = {
  /** the journal itself (the file backend) */
  journal: 'journal.jsonl',
  /** the workspace lock: pid + start time of the one writer */
  lock: 'lock',
  /** content-addressed blobs: spec backups and displaced content */
  blobs: 'blobs',
  /** one transcript per agent call, never overwritten */
  transcripts: 'transcripts',
  /** hook output, one log per hook call */
  hooks: 'hooks',
  /** `$YOKE_USAGE_FILE` of each agent call */
  usage: 'usage',
  /** where the running yoke's gate listens, with the token that lets `yoke answer` reach it (0600; removed when the run ends) */
  gate: 'gate.json',
  /** the running yoke's heartbeat, for `yoke status` */
  heartbeat: 'heartbeat.json',
  /** the status view (a cache `yoke status` checks against the journal) */
  status: 'status.json',
  /** the fold checkpoint of the running run (a cache `yoke run` resumes from when a journaled digest vouches for it) */
  checkpoint: 'checkpoint.json',
  /** DECISIONS.md as it was before a commit's decision entry, per effect key, until that commit is settled */
  decisions: 'decisions',
} as const;

/** `.loop/.journal` of a workspace. */
export function journalDirOf(loopDir: string): string {
  return join(loopDir, '.journal');
}

/** The absolute path of one of yoke's `.loop/.journal/` entries. */
export function journalEntry(loopDir: string, entry: keyof typeof JOURNAL_LAYOUT): string {
  return join(journalDirOf(loopDir), JOURNAL_LAYOUT[entry]);
}

/** `.loop/.stash` of a workspace. */
export function stashDirOf(loopDir: string): string {
  return join(loopDir, '.stash');
}
