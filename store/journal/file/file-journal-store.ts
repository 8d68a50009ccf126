// The file backend's writing side: appends (fence, fdatasync, failpoints), torn-tail repair, integrity and rescue.
import { closeSync, existsSync, fdatasyncSync, fstatSync, fsyncSync, ftruncateSync, mkdirSync, openSync, renameSync, statSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { die, readFailpoint, type Failpoint } from '../failpoint.js';
import { EMPTY_HEAD, JournalHeadMoved, sameHead, type JournalHead } from '../journal-head.js';
import type { JournalStore, SealedRecord, TornTail } from '../journal-store.js';
import { attempt, FileJournalReader } from './file-journal-reader.js';
import { FileLease } from './file-lease.js';
import { readFileTail, tailOf } from './journal-tail.js';

/** The open file a writer appends to, and what the file looked like after its last write. */
interface Attached {
  fd: number;
  ino: number;
  bytes: number;
  mtimeMs: number;
  head: JournalHead;
}

/**
 * The journal as the file `location` (`.loop/.journal/journal.jsonl`) to read and write, and the
 * lease as the lock file next to it. Durability: every append is one write and one fdatasync.
 * The fence and the integrity check are the same test: the file is exactly as this store last
 * left it (same inode, size and modification time), so the file backend refuses an append after
 * any foreign change, not only one that moved the head.
 *
 * `YOKE_FAILPOINT` (store/journal/failpoint.ts) is honoured here: `crash-after:<seq>` dies right
 * after the batch holding that record is durable, `torn-at:<seq>` writes half of its line first.
 */
export class FileJournalStore extends FileJournalReader implements JournalStore {
  readonly lease: FileLease;
  private attached: Attached | null = null;
  private failpoint: Failpoint | null = null;

  constructor(
    location: string,
    private readonly options: { lockPath?: string; warn: (message: string) => void },
  ) {
    super(location);
    this.lease = new FileLease(options.lockPath ?? join(dirname(location), 'lock'));
  }

  attach(head: JournalHead): Promise<TornTail | null> {
    return attempt(() => {
      if (this.attached) throw new Error(`${this.location} is attached already`);
      this.failpoint = readFailpoint(process.env, this.options.warn);
      const dir = dirname(this.location);
      mkdirSync(dir, { recursive: true });
      const created = !existsSync(this.location);
      const fd = openSync(this.location, 'a+');
      try {
        if (created) fsyncDirectory(dir);
        const tail = tailOf(fd, fstatSync(fd).size);
        if (!sameHead(tail.head, head)) throw new JournalHeadMoved(this.location, head, tail.head);
        let torn: TornTail | null = null;
        if (tail.torn) {
          ftruncateSync(fd, tail.torn.offset);
          fdatasyncSync(fd);
          torn = { where: `${this.location}:${head.seq + 1}`, ...tail.torn };
        }
        this.attached = { fd, ino: 0, bytes: 0, mtimeMs: 0, head };
        this.rememberFile(this.attached);
        return torn;
      } catch (error) {
        closeSync(fd);
        throw error;
      }
    }, this.location);
  }

  append(batch: readonly SealedRecord[], expected: JournalHead): Promise<JournalHead> {
    return attempt(() => {
      const file = this.writable();
      if (!sameHead(expected, file.head) || !this.unchanged(file)) throw new JournalHeadMoved(this.location, expected, this.storedHead());
      const first = batch[0];
      const last = batch[batch.length - 1];
      if (!first || !last) return file.head;
      if (first.record.seq !== expected.seq + 1 || first.record.prev !== expected.hash) {
        throw new Error(`a batch starting at seq ${first.record.seq} does not continue the head at seq ${expected.seq}`);
      }
      const point = this.failpoint;
      const hit = point !== null && point.seq >= first.record.seq && point.seq <= last.record.seq;
      if (hit && point.kind === 'torn-at') tornWrite(file.fd, batch, point.seq - first.record.seq);
      const data = Buffer.from(batch.map((sealed) => `${sealed.text}\n`).join(''), 'utf8');
      writeAll(file.fd, data);
      fdatasyncSync(file.fd);
      if (hit && point.kind === 'crash-after') die();
      file.head = { seq: last.record.seq, hash: last.hash };
      this.rememberFile(file);
      return file.head;
    }, this.location);
  }

  untouched(): Promise<boolean> {
    return attempt(() => this.unchanged(this.writable()), this.location);
  }

  rescue(own: readonly SealedRecord[], before?: Uint8Array): Promise<{ keptAs: string | null }> {
    return attempt(() => {
      const file = this.writable();
      const path = this.location;
      let keptAs: string | null = null;
      if (existsSync(path)) {
        keptAs = `${path}.tampered-${Date.now()}`;
        renameSync(path, keptAs);
      }
      mkdirSync(dirname(path), { recursive: true });
      const temporary = `${path}.rescue-${process.pid}`;
      const fd = openSync(temporary, 'w');
      try {
        if (before !== undefined) writeAll(fd, before);
        writeAll(fd, Buffer.from(own.map((sealed) => `${sealed.text}\n`).join(''), 'utf8'));
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      renameSync(temporary, path);
      fsyncDirectory(dirname(path));
      // From now on this store appends to the rescued file, not to the one moved aside.
      closeSync(file.fd);
      file.fd = openSync(path, 'a+');
      const last = own[own.length - 1];
      file.head = last ? { seq: last.record.seq, hash: last.hash } : before !== undefined ? readFileTail(path).head : EMPTY_HEAD;
      this.rememberFile(file);
      return { keptAs };
    }, this.location);
  }

  close(): Promise<void> {
    return attempt(() => {
      if (this.attached) closeSync(this.attached.fd);
      this.attached = null;
    }, this.location);
  }

  private writable(): Attached {
    if (!this.attached) throw new Error(`${this.location}: attach before writing`);
    return this.attached;
  }

  /** The file at the path is the one this store writes, as it left it. */
  private unchanged(file: Attached): boolean {
    const onDisk = statSync(this.location, { throwIfNoEntry: false });
    return onDisk !== undefined && onDisk.ino === file.ino && onDisk.size === file.bytes && onDisk.mtimeMs === file.mtimeMs;
  }

  private rememberFile(file: Attached): void {
    const stats = fstatSync(file.fd);
    file.ino = stats.ino;
    file.bytes = stats.size;
    file.mtimeMs = stats.mtimeMs;
  }

  /** The head of the file at the path now, for the fence's message (null when it cannot be read). */
  private storedHead(): JournalHead | null {
    try {
      return readFileTail(this.location).head;
    } catch {
      return null; // only decorates the refusal; the refusal itself stands
    }
  }
}

function writeAll(fd: number, data: Uint8Array): void {
  let written = 0;
  while (written < data.length) written += writeSync(fd, data, written, data.length - written);
}

/** Failpoint: the lines before `index` complete, then half of line `index`, then death. */
function tornWrite(fd: number, batch: readonly SealedRecord[], index: number): never {
  const whole = batch.slice(0, index).map((sealed) => `${sealed.text}\n`).join('');
  const line = batch[index]?.text ?? '';
  writeAll(fd, Buffer.from(whole + line.slice(0, Math.max(1, Math.floor(line.length / 2))), 'utf8'));
  fdatasyncSync(fd);
  return die();
}

function fsyncDirectory(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
