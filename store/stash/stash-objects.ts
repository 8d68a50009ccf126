// Content-addressed file contents of the stash: `.loop/.stash/objects/<sha256>`, each stored once.
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, copyFileSync, fchmodSync, fsyncSync, lstatSync, mkdirSync, openSync, readSync, renameSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { YokeError } from '../../errors/yoke-error.js';

/** Objects yoke writes itself are read-only: nothing should ever edit one in place. */
const OBJECT_MODE = 0o444;
/** One buffer for all streaming reads (yoke commands are single-threaded and synchronous here). */
const chunk = Buffer.allocUnsafe(1 << 20);

/** The folder holding every object. */
export function objectsDir(stashDir: string): string {
  return join(stashDir, 'objects');
}

/** Where the object with this hash lives. */
export function objectPath(stashDir: string, hash: string): string {
  return join(stashDir, 'objects', hash);
}

/** Is there an object with this hash and size? (A size check, not a re-hash.) */
export function hasObject(stashDir: string, hash: string, size: number): boolean {
  const stats = lstatSync(objectPath(stashDir, hash), { throwIfNoEntry: false });
  return stats !== undefined && stats.isFile() && stats.size === size;
}

/** sha256 and byte length of a file, read in chunks (any size). */
export function hashFile(path: string): { hash: string; size: number } {
  const hash = createHash('sha256');
  const fd = openSync(path, 'r');
  let size = 0;
  try {
    for (let read = readSync(fd, chunk, 0, chunk.length, null); read > 0; read = readSync(fd, chunk, 0, chunk.length, null)) {
      hash.update(chunk.subarray(0, read));
      size += read;
    }
  } finally {
    closeSync(fd);
  }
  return { hash: hash.digest('hex'), size };
}

/**
 * Make the file at `path` (whose content hashes to `hash`) the object, by renaming it: no copy, and
 * the data is exactly the bytes that were there. A file with other hard links is copied instead, so
 * an object never shares its inode with a file someone may edit.
 */
export function moveIntoObjects(stashDir: string, path: string, hash: string, hardLinked: boolean): void {
  const target = objectPath(stashDir, hash);
  if (hardLinked) {
    copyIntoObjects(stashDir, path, hash);
    unlinkSync(path);
    return;
  }
  try {
    // The object keeps the file's permission bits (the manifest has the real ones): no chmod per
    // file, which would cost as much again as the rename. Restores check every byte anyway.
    renameSync(path, target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    copyIntoObjects(stashDir, path, hash);
    unlinkSync(path);
  }
}

/**
 * Copy the file at `source` into the objects durably (temp file, fsync, rename): used for content
 * that must stay where it is (templates, hard-linked files). Checks the copy hashes to `hash`.
 */
export function copyIntoObjects(stashDir: string, source: string, hash: string): void {
  const temporary = join(objectsDir(stashDir), `.tmp-${process.pid}-${randomBytes(6).toString('hex')}`);
  try {
    copyFileSync(source, temporary);
    if (hashFile(temporary).hash !== hash) throw new Error(`${source} changed while yoke was stashing it`);
    const fd = openSync(temporary, 'r');
    try {
      fchmodSync(fd, OBJECT_MODE);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, objectPath(stashDir, hash));
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}

/** Store `content` as an object durably (if it is not there yet) and return its hash. */
export function writeObject(stashDir: string, content: Buffer): string {
  const hash = createHash('sha256').update(content).digest('hex');
  if (hasObject(stashDir, hash, content.length)) return hash;
  mkdirSync(objectsDir(stashDir), { recursive: true });
  const temporary = join(objectsDir(stashDir), `.tmp-${process.pid}-${randomBytes(6).toString('hex')}`);
  const fd = openSync(temporary, 'wx', OBJECT_MODE);
  try {
    writeAll(fd, content);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, objectPath(stashDir, hash));
  return hash;
}

/**
 * Copy the content named `hash` from `source` (an object, or a file expected to hold that
 * content) to a new file at `target` with permissions `mode`, checking every byte against the
 * hash. A mismatch removes `target` and refuses the workspace: the stash was damaged.
 */
export function copyVerified(source: string, target: string, hash: string, mode: number): void {
  const digest = createHash('sha256');
  const input = openInput(source, hash);
  try {
    const output = openSync(target, 'wx', 0o600);
    try {
      for (let read = readSync(input, chunk, 0, chunk.length, null); read > 0; read = readSync(input, chunk, 0, chunk.length, null)) {
        digest.update(chunk.subarray(0, read));
        writeAll(output, chunk.subarray(0, read));
      }
      fchmodSync(output, mode);
    } finally {
      closeSync(output);
    }
  } finally {
    closeSync(input);
  }
  if (digest.digest('hex') !== hash) {
    rmSync(target, { force: true });
    throw new YokeError('workspace', `${source} does not hold the content the stash recorded (sha256 ${hash}); the stash was damaged or edited.`);
  }
}

function openInput(source: string, hash: string): number {
  try {
    return openSync(source, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    throw new YokeError('workspace', `${source} is missing: the stash lost the content sha256 ${hash} (were files under .loop/.stash/ deleted?).`);
  }
}

function writeAll(fd: number, data: Buffer): void {
  let written = 0;
  while (written < data.length) written += writeSync(fd, data, written, data.length - written);
}
