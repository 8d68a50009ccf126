// .yoke/backup/<stamp>/: what one retrofit replaced or deleted (files/<path>) and retrofit.json,
// the record `yoke retrofit --undo` restores the project from.
import { z } from 'zod';

/** The folder every backup lives in. */
export const BACKUP_ROOT = '.yoke/backup';
/** The record's name inside a backup. */
export const BACKUP_RECORD = 'retrofit.json';

const hash = z.string().regex(/^sha256:[0-9a-f]{64}$/);

/** One path the retrofit wrote or deleted: what it held before (copied to files/<path>) and after. */
export const touchedPathSchema = z.object({
  path: z.string().min(1),
  before: z.union([z.literal('absent'), z.object({ hash, mode: z.number().int() })]),
  after: z.union([z.literal('absent'), hash]),
  /** a context template: if the user filled it in since, undo keeps it */
  seed: z.boolean().optional(),
}).strict();

/** One path the retrofit wrote or deleted. */
export type TouchedPath = z.infer<typeof touchedPathSchema>;

/** The record of one retrofit. */
export const backupRecordSchema = z.object({
  version: z.literal(1),
  stamp: z.string().min(1),
  touched: z.array(touchedPathSchema),
  /** folders the retrofit created, parents first (undo removes them when empty) */
  createdDirs: z.array(z.string()),
}).strict();

/** The record of one retrofit. */
export type BackupRecord = z.infer<typeof backupRecordSchema>;

/** The backup folder's name for a UTC time: 20261201T162400Z (a suffix when taken). */
export function backupStamp(isoTime: string, taken: readonly string[]): string {
  const base = isoTime.replace(/\.\d+Z$/, 'Z').replace(/[-:]/g, '');
  if (!taken.includes(base)) return base;
  let n = 2;
  while (taken.includes(`${base}-${n}`)) n += 1;
  return `${base}-${n}`;
}
