// Applies a retrofit plan: first copies everything it will replace or delete to
// .yoke/backup/<stamp>/files/ and writes the record (retrofit.json), then writes and deletes,
// the lock last. Nothing is written when the plan changes nothing, and nothing at all when a path
// became a link or leads out of the project since the plan. A link on a path's way stays a link:
// the bytes are written (and backed up, and undone) where it leads.
import { existsSync } from 'node:fs';
import { chmod, mkdir, readdir, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { LOCK_PATH } from '../../machines/retrofit/canon-lock.js';
import { contentHash } from '../../machines/retrofit/content-hash.js';
import { BACKUP_RECORD, BACKUP_ROOT, backupStamp, type BackupRecord, type TouchedPath } from '../../machines/retrofit/retrofit-backup.js';
import type { PlanEntry, RetrofitPlan } from '../../machines/retrofit/retrofit-plan.js';
import { readOptionalFile } from '../fs/read-optional-file.js';
import { writeFileAtomic } from '../fs/write-file-atomic.js';
import { assertWritableInProject } from './project-links.js';

/** What applying did: the backup folder (relative to the root), or null when nothing changed. */
export interface AppliedRetrofit {
  backup: string | null;
  written: string[];
  deleted: string[];
}

function parents(path: string): string[] {
  const parts = path.split('/').slice(0, -1);
  return parts.map((_, index) => parts.slice(0, index + 1).join('/'));
}

/** The folders writing `paths` would create, parents first. */
function missingDirs(root: string, paths: readonly string[]): string[] {
  const dirs: string[] = [];
  for (const path of paths) for (const dir of parents(path)) if (!dirs.includes(dir) && !existsSync(join(root, dir))) dirs.push(dir);
  return dirs;
}

/** Remove `dir` and its parents up to `root` while they are empty. */
export async function removeEmptyParents(root: string, path: string): Promise<void> {
  for (const dir of parents(path).reverse()) {
    const abs = join(root, dir);
    try {
      if ((await readdir(abs)).length > 0) return;
      await rmdir(abs);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw error;
    }
  }
}

/** Where an entry's bytes go: through a link on its way, or its own path. */
function target(entry: PlanEntry): string {
  return entry.through ?? entry.path;
}

/** Apply `plan` under `root`; `now` is the UTC time that names the backup. */
export async function applyRetrofit(root: string, plan: RetrofitPlan, now: Date): Promise<AppliedRetrofit> {
  const changes = plan.entries.filter((entry): entry is PlanEntry => entry.action === 'create' || entry.action === 'update' || entry.action === 'delete');
  if (changes.length === 0) return { backup: null, written: [], deleted: [] };
  const taken = existsSync(join(root, BACKUP_ROOT)) ? await readdir(join(root, BACKUP_ROOT)) : [];
  const stamp = backupStamp(now.toISOString(), taken);
  const backup = `${BACKUP_ROOT}/${stamp}`;
  // Before anything is written: no path (nor the backup) is a link or leads out of the project.
  for (const path of [`${backup}/${BACKUP_RECORD}`, ...changes.map(target)]) await assertWritableInProject(root, path);
  const written = changes.filter((entry) => entry.action !== 'delete').map(target);
  const createdDirs = missingDirs(root, [...written, `${backup}/${BACKUP_RECORD}`]);
  const touched: TouchedPath[] = [];
  await mkdir(join(root, backup, 'files'), { recursive: true });
  for (const entry of changes) {
    const path = target(entry);
    const abs = join(root, path);
    const before = await readOptionalFile(abs);
    let previous: TouchedPath['before'] = 'absent';
    if (before !== null) {
      const copy = join(root, backup, 'files', path);
      await mkdir(dirname(copy), { recursive: true });
      await writeFile(copy, before);
      previous = { hash: contentHash(before), mode: (await stat(abs)).mode & 0o7777 };
    }
    const after = entry.action === 'delete' ? 'absent' : contentHash(entry.content ?? '');
    touched.push({ path, before: previous, after, ...(entry.seed ? { seed: true } : {}) });
  }
  const record: BackupRecord = { version: 1, stamp, touched, createdDirs };
  await writeFileAtomic(join(root, backup, BACKUP_RECORD), `${JSON.stringify(record, null, 2)}\n`);

  const ordered = [...changes.filter((entry) => entry.path !== LOCK_PATH), ...changes.filter((entry) => entry.path === LOCK_PATH)];
  const deleted: string[] = [];
  for (const entry of ordered) {
    const path = target(entry);
    const abs = join(root, path);
    if (entry.action === 'delete') {
      await rm(abs, { force: true });
      await removeEmptyParents(root, path);
      deleted.push(path);
      continue;
    }
    await mkdir(dirname(abs), { recursive: true });
    const mode = touched.find((item) => item.path === path)?.before;
    await writeFileAtomic(abs, entry.content ?? '', mode === undefined || mode === 'absent' ? 0o644 : mode.mode);
    if (mode !== undefined && mode !== 'absent') await chmod(abs, mode.mode);
  }
  return { backup, written, deleted };
}
