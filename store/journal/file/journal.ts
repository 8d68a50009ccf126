// The append-only journal writer: stages records, then writes and fsyncs them in one go.
import { closeSync, existsSync, fdatasyncSync, fstatSync, fsyncSync, ftruncateSync, mkdirSync, openSync, renameSync, statSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { monotonicFactory } from 'ulid';
import { bufferedRandom } from '../buffered-random.js';
import { die, readFailpoint, type Failpoint } from '../failpoint.js';
import { readJournalFile, type JournalContents } from './journal-file.js';
import { recordHash as hashLine } from '../record-chain.js';
import { GENESIS_HASH } from '../journal-head.js';
import { SCHEMA_VERSION, type JournalRecord, type RecordDraft } from '../record.js';

/**
 * One open journal. Only the process holding the workspace lock may open it for writing.
 *
 * Durability: `stage()` assigns seq/id/time/prev and keeps the line in memory; `flush()` writes
 * every staged line with a single write and fdatasync. The runner flushes before executing any
 * effect, so `effect.started` is durable before the I/O it announces.
 */
export class Journal {
  private readonly staged: string[] = [];
  private readonly failpoint: Failpoint | null;
  private readonly ulid = monotonicFactory(bufferedRandom());
  private flushedMtimeMs = 0;
  /** told about every record as it is staged (used for `--json` output) */
  listener: ((record: JournalRecord) => void) | null = null;

  private constructor(
    readonly path: string,
    private readonly fd: number,
    /** every record, including staged ones */
    readonly records: JournalRecord[],
    private lastHash: string,
    private bytes: number,
    warn: (message: string) => void,
  ) {
    this.failpoint = readFailpoint(process.env, warn);
  }

  /**
   * Open (creating if needed) and verify the journal. A torn last line is cut off and a
   * `journal.repaired` record is appended; `warn` is told. Other damage throws (exit 3).
   * `known` is a read of the same file taken just before (e.g. before the lock was taken): it is
   * used instead of reading again only if the file still has the size, inode and mtime it had then.
   */
  static open(path: string, warn: (message: string) => void, listener: ((record: JournalRecord) => void) | null = null, known: KnownRead | null = null): Journal {
    const contents = known !== null && unchangedSince(path, known) ? known.contents : readJournalFile(path);
    const created = contents.records.length === 0 && contents.torn === null;
    mkdirSync(dirname(path), { recursive: true });
    const fd = openSync(path, 'a+');
    const journal = new Journal(path, fd, contents.records, contents.lastHash, contents.validBytes, warn);
    journal.flushedMtimeMs = fstatSync(fd).mtimeMs;
    journal.listener = listener;
    if (created) fsyncDirectory(dirname(path));
    if (contents.torn) {
      ftruncateSync(fd, contents.validBytes);
      fdatasyncSync(fd);
      journal.flushedMtimeMs = fstatSync(fd).mtimeMs;
      warn(`${path}:${contents.torn.line}: removed a torn last line (${contents.torn.bytes} bytes) left by a crash mid-write.`);
      journal.append({
        type: 'journal.repaired', run: null, machine: null, mv: null,
        payload: { line: contents.torn.line, droppedBytes: contents.torn.bytes },
      });
    }
    return journal;
  }

  /** Read `path` and remember what the file looked like, for a later `open(…, known)`. */
  static readKnown(path: string): KnownRead {
    const stat = statOrNull(path);
    return { contents: readJournalFile(path), stat };
  }

  /** Size in bytes of what is durable on disk (used by the tamper check). */
  get durableBytes(): number {
    return this.bytes;
  }

  /** Hash of the last record (durable or staged). */
  get headHash(): string {
    return this.lastHash;
  }

  /** Add a record to the in-memory tail; it is durable after the next `flush()`. */
  stage(draft: RecordDraft, now: number = Date.now()): JournalRecord {
    const record = {
      v: SCHEMA_VERSION,
      seq: this.records.length + 1,
      id: this.ulid(now),
      ts: new Date(now).toISOString(),
      run: draft.run,
      machine: draft.machine,
      mv: draft.mv,
      type: draft.type,
      payload: draft.payload,
      prev: this.lastHash,
    } as JournalRecord;
    const line = JSON.stringify(record);
    this.lastHash = hashLine(line);
    this.staged.push(line);
    this.records.push(record);
    this.listener?.(record);
    return record;
  }

  /** Write and fdatasync everything staged. */
  flush(): void {
    if (this.staged.length === 0) return;
    const firstSeq = this.records.length - this.staged.length + 1;
    const lastSeq = this.records.length;
    if (this.failpoint?.kind === 'torn-at' && this.failpoint.seq >= firstSeq && this.failpoint.seq <= lastSeq) {
      this.tornWrite(this.failpoint.seq - firstSeq);
    }
    const data = Buffer.from(`${this.staged.join('\n')}\n`, 'utf8');
    this.writeAll(data);
    fdatasyncSync(this.fd);
    if (this.failpoint?.kind === 'crash-after' && this.failpoint.seq >= firstSeq && this.failpoint.seq <= lastSeq) die();
    this.bytes += data.length;
    this.staged.length = 0;
    this.flushedMtimeMs = fstatSync(this.fd).mtimeMs;
  }

  /** Is the file at `path` still the one yoke writes, unchanged since the last flush? */
  untouchedOnDisk(): boolean {
    const onDisk = statSync(this.path, { throwIfNoEntry: false });
    if (!onDisk) return false;
    const open = fstatSync(this.fd);
    return onDisk.ino === open.ino && onDisk.size === this.bytes && onDisk.mtimeMs === this.flushedMtimeMs;
  }

  /**
   * After the file at `path` was deleted, replaced or edited by someone else: move what is there
   * aside (if anything) and write yoke's own records back in its place, checked against the hash
   * chain yoke kept in memory. Returns where the foreign version went (null if it was deleted).
   */
  rescue(): { tamperedCopy: string | null } {
    const lines = this.records.map((record) => JSON.stringify(record));
    let hash = GENESIS_HASH;
    for (const line of lines) hash = hashLine(line);
    if (hash !== this.lastHash) throw new Error('the in-memory journal no longer matches its own hash chain');
    let tamperedCopy: string | null = null;
    if (existsSync(this.path)) {
      tamperedCopy = `${this.path}.tampered-${Date.now()}`;
      renameSync(this.path, tamperedCopy);
    }
    mkdirSync(dirname(this.path), { recursive: true });
    const temporary = `${this.path}.rescue-${process.pid}`;
    const fd = openSync(temporary, 'w');
    try {
      const data = Buffer.from(lines.length > 0 ? `${lines.join('\n')}\n` : '', 'utf8');
      let written = 0;
      while (written < data.length) written += writeSync(fd, data, written, data.length - written);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, this.path);
    fsyncDirectory(dirname(this.path));
    return { tamperedCopy };
  }

  private writeAll(data: Buffer): void {
    let written = 0;
    while (written < data.length) written += writeSync(this.fd, data, written, data.length - written);
  }

  /** Failpoint: the lines before `index` complete, then half of line `index`, then death. */
  private tornWrite(index: number): never {
    const whole = this.staged.slice(0, index).map((line) => `${line}\n`).join('');
    const line = this.staged[index] ?? '';
    this.writeAll(Buffer.from(whole + line.slice(0, Math.max(1, Math.floor(line.length / 2))), 'utf8'));
    fdatasyncSync(this.fd);
    return die();
  }

  /** Stage and flush one record. */
  append(draft: RecordDraft): JournalRecord {
    const record = this.stage(draft);
    this.flush();
    return record;
  }

  close(): void {
    this.flush();
    closeSync(this.fd);
  }
}

function fsyncDirectory(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** A read of the journal and the file's identity when it was read. */
export interface KnownRead {
  contents: JournalContents;
  stat: { size: number; ino: number; mtimeMs: number } | null;
}

function statOrNull(path: string): KnownRead['stat'] {
  try {
    const { size, ino, mtimeMs } = statSync(path);
    return { size, ino, mtimeMs };
  } catch {
    return null;
  }
}

/** The file is exactly as it was when `known` was read (absent both times, or same size, inode and mtime). */
function unchangedSince(path: string, known: KnownRead): boolean {
  const now = statOrNull(path);
  if (now === null || known.stat === null) return now === known.stat;
  return now.size === known.stat.size && now.ino === known.stat.ino && now.mtimeMs === known.stat.mtimeMs;
}
