// `yoke retrofit --undo`: puts back, byte for byte, everything the last retrofit changed, removes
// what it created (its backup and the folders it made included), or changes nothing at all.
import { existsSync } from 'node:fs';
import { chmod, copyFile, mkdir, readdir, readFile, rm, rmdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { contentHash } from '../../machines/retrofit/content-hash.js';
import { planUndo, type UndoStep } from '../../machines/retrofit/plan-undo.js';
import { BACKUP_RECORD, BACKUP_ROOT, backupRecordSchema, type BackupRecord } from '../../machines/retrofit/retrofit-backup.js';
import { readOptionalFile } from '../fs/read-optional-file.js';
import { assertWritableInProject } from './project-links.js';

/** The outcome: done (with its steps), nothing to undo, or refused because paths changed since. */
export type UndoOutcome =
  | { outcome: 'undone'; backup: string; steps: UndoStep[] }
  | { outcome: 'nothing' }
  | { outcome: 'conflict'; backup: string; conflicts: Array<{ path: string; reason: string }> }
  | { outcome: 'damaged'; backup: string; reason: string };

/** The newest backup folder holding a record, relative to `root`, or null. */
export async function latestBackup(root: string): Promise<string | null> {
  const dir = join(root, BACKUP_ROOT);
  if (!existsSync(dir)) return null;
  const stamps = (await readdir(dir)).filter((name) => existsSync(join(dir, name, BACKUP_RECORD))).sort();
  const last = stamps.at(-1);
  return last === undefined ? null : `${BACKUP_ROOT}/${last}`;
}

/** Undo the last retrofit under `root`; with `dryRun`, only say what would happen. */
export async function undoRetrofit(root: string, dryRun: boolean): Promise<UndoOutcome> {
  const backup = await latestBackup(root);
  if (backup === null) return { outcome: 'nothing' };
  let record: BackupRecord;
  try {
    record = backupRecordSchema.parse(JSON.parse(await readFile(join(root, backup, BACKUP_RECORD), 'utf8')));
  } catch (error) {
    return { outcome: 'damaged', backup, reason: error instanceof Error ? error.message.split('\n')[0] ?? '' : String(error) };
  }
  const current = new Map<string, Uint8Array | null>();
  for (const touched of record.touched) current.set(touched.path, await readOptionalFile(join(root, touched.path)));
  const plan = planUndo(record, current);
  if (plan.conflicts.length > 0) return { outcome: 'conflict', backup, conflicts: plan.conflicts };
  for (const step of plan.steps) {
    if (step.action !== 'restore') continue;
    const copy = await readOptionalFile(join(root, backup, 'files', step.path));
    if (copy === null || contentHash(copy) !== step.hash) return { outcome: 'damaged', backup, reason: `the saved copy of ${step.path} is missing or changed` };
  }
  // Every path is put back where it was, inside the project: none (nor the backup) became a link or leads out since.
  await assertWritableInProject(root, `${backup}/${BACKUP_RECORD}`);
  for (const step of plan.steps) if (step.action !== 'keep') await assertWritableInProject(root, step.path);
  if (dryRun) return { outcome: 'undone', backup, steps: plan.steps };
  for (const step of plan.steps) {
    const abs = join(root, step.path);
    switch (step.action) {
      case 'restore':
        await mkdir(dirname(abs), { recursive: true });
        await copyFile(join(root, backup, 'files', step.path), abs);
        await chmod(abs, step.mode);
        break;
      case 'delete':
        await rm(abs, { force: true });
        break;
      case 'keep':
        break;
    }
  }
  await rm(join(root, backup), { recursive: true, force: true });
  for (const dir of [...record.createdDirs].reverse()) {
    try {
      await rmdir(join(root, dir));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTEMPTY' && code !== 'EEXIST') throw error;
    }
  }
  return { outcome: 'undone', backup, steps: plan.steps };
}
