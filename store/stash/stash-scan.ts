// Reading what a stash would capture: every entry of `.loop/` below a name that is not a dotfile.
import { lstatSync, readdirSync, readlinkSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { linkTargetProblem } from './stash-entry-safety.js';
import { sortEntries, type StashEntry } from './stash-entry.js';
import { hashFile } from './stash-objects.js';
import { YokeError } from '../../errors/yoke-error.js';

/** A snapshot of `.loop/` as a manifest, plus what moving its files needs to know. */
export interface LoopSnapshot {
  /** every entry, sorted by path (folders before their contents) */
  entries: StashEntry[];
  files: number;
  bytes: number;
  /** paths of files that have other hard links (copied into the objects, never renamed) */
  hardLinked: Set<string>;
}

/** The names directly in `.loop/` that are not dotfiles (empty when `.loop/` does not exist). */
export function visibleNames(loopDir: string): string[] {
  let names: Buffer[];
  try {
    names = readdirSync(loopDir, 'buffer');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return names.map((name) => decodeName(name, loopDir)).filter((name) => !name.startsWith('.')).sort();
}

/**
 * Walk `.loop/` (never following a link) and hash every file. Refuses, before anything changes,
 * what a stash could not give back exactly: special files (FIFOs, sockets, devices), names that
 * are not UTF-8, and links whose target leaves `.loop/`.
 */
export function scanLoop(loopDir: string): LoopSnapshot {
  const snapshot: LoopSnapshot = { entries: [], files: 0, bytes: 0, hardLinked: new Set() };
  for (const name of visibleNames(loopDir)) visit(loopDir, name, snapshot, true);
  snapshot.entries = sortEntries(snapshot.entries);
  return snapshot;
}

/**
 * The same refusals as `scanLoop` without reading any file: a cheap check a command makes before
 * it takes the lock, so that a refused stash leaves the workspace exactly as it was.
 */
export function checkStashable(loopDir: string): void {
  const snapshot: LoopSnapshot = { entries: [], files: 0, bytes: 0, hardLinked: new Set() };
  for (const name of visibleNames(loopDir)) visit(loopDir, name, snapshot, false);
}

function visit(loopDir: string, path: string, snapshot: LoopSnapshot, hash: boolean): void {
  const abs = join(loopDir, path);
  const stats = lstatSync(abs);
  if (stats.isDirectory()) {
    snapshot.entries.push({ path, type: 'dir', mode: stats.mode & 0o777 });
    for (const name of readdirSync(abs, 'buffer')) visit(loopDir, `${path}/${decodeName(name, abs)}`, snapshot, hash);
    return;
  }
  if (stats.isFile()) {
    if (!hash) return;
    const { hash: blob, size } = hashFile(abs);
    snapshot.entries.push({ path, type: 'file', mode: stats.mode & 0o777, size, blob });
    snapshot.files += 1;
    snapshot.bytes += size;
    if (stats.nlink > 1) snapshot.hardLinked.add(path);
    return;
  }
  if (stats.isSymbolicLink()) {
    const target = decodeName(readlinkSync(abs, 'buffer'), abs);
    const problem = linkTargetProblem(path, target);
    if (problem) {
      throw refuse(path, `it is a symbolic link and ${problem}; yoke stores links as links but never restores one that could lead outside .loop/. Replace it with a copy or a link inside .loop/`);
    }
    snapshot.entries.push({ path, type: 'symlink', target });
    return;
  }
  throw refuse(path, `it is a ${kindOf(stats)}; yoke stashes files, folders and symbolic links only. Move it out of .loop/`);
}

function decodeName(name: Buffer, where: string): string {
  const text = name.toString('utf8');
  if (!Buffer.from(text, 'utf8').equals(name)) {
    throw new YokeError('usage', `${where}: the name ${JSON.stringify(text)} is not valid UTF-8, so the stash could not give it back exactly; rename it. Nothing was changed.`);
  }
  return text;
}

function kindOf(stats: Stats): string {
  if (stats.isFIFO()) return 'named pipe (FIFO)';
  if (stats.isSocket()) return 'socket';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'device file';
  return 'special file';
}

function refuse(path: string, why: string): YokeError {
  return new YokeError('usage', `cannot stash .loop/${path}: ${why}. Nothing was changed.`);
}
