// The journal store seam (DESIGN §7): what everything above store/journal/ may ask of a backend.
// The file journal (store/journal/file/) implements it today; a PostgreSQL backend (DESIGN §14)
// implements the same interface and passes the same contract suite (tests/contract/).
import type { JournalHead } from './journal-head.js';
import type { JournalRecord } from './record.js';

/**
 * A record ready to be stored: the envelope, the exact text its hash covers, and that hash (the
 * next record's `prev`). The writer computes all three, identically for every backend
 * (store/journal/record-chain.ts); a backend stores the text as is and never re-serializes it.
 */
export interface SealedRecord {
  readonly record: JournalRecord;
  readonly text: string;
  readonly hash: string;
}

/** A partial record left by a crash mid-append (only backends with `canTear`). */
export interface TornTail {
  /** how messages name it (`…/journal.jsonl:12` for the file backend) */
  readonly where: string;
  /** where the partial record starts in the stored journal, in bytes */
  readonly offset: number;
  /** its length in bytes */
  readonly bytes: number;
}

/** Records in journal order, each checked (schema, seq, hash chain), delivered a page at a time. */
export interface RecordPage {
  readonly records: readonly JournalRecord[];
  /** the head after the last record of this page (of the whole read so far) */
  readonly head: JournalHead;
  /** set on the last page only: a partial record after the last complete one, left alone by reads */
  readonly torn: TornTail | null;
}

/** Which part of the journal a read covers: records with `fromSeq ≤ seq ≤ toSeq`. */
export interface ReadRange {
  /** default 1 */
  fromSeq?: number;
  /** default: the end, as it is when the read gets there */
  toSeq?: number;
}

/** The head as stored now, read cheaply (the records before it are not checked). */
export interface StoredHead extends JournalHead {
  /** a partial record follows the head (backends with `canTear`; `attach` cuts it off) */
  readonly torn: boolean;
  /**
   * An opaque token that changes whenever the stored journal changes in any way, even where its
   * head does not (the file backend: inode, size and modification time); null when the backend
   * has none. Caches keyed on the head (the status view) key on it too, so an edit inside the
   * journal is noticed without reading it.
   */
  readonly stamp: string | null;
}

/** Who holds a workspace lease: a process named by pid and kernel start time, never by name. */
export interface LeaseHolder {
  pid: number;
  startTime: string | null;
  /** `yoke run`, `yoke stash`, … */
  command: string;
  /** the machine it runs on (backends shared between machines: PostgreSQL) */
  host?: string;
  /** when the lease lapses unless its heartbeat renews it (ISO time; backends whose leases expire) */
  expiresAt?: string;
}

/** The lease, held by this process. */
export interface HeldLease {
  readonly holder: LeaseHolder;
  /** is the lease still this process's? (false when someone removed or replaced it) */
  held(): Promise<boolean>;
  /** keep it (where leases expire, extend it); a workspace error when it was lost meanwhile */
  renew(): Promise<void>;
  /** give it up, if it is still this process's */
  release(): Promise<void>;
}

/** One writer per workspace (DESIGN §6): the lease every writing command holds while it works. */
export interface WorkspaceLease {
  /** how messages name the lease (the lock file for the file backend) */
  readonly location: string;
  /**
   * Take the lease for this process and `command`. A live holder refuses the workspace (a
   * `workspace` YokeError, exit 3); a stale one (its process is gone) is taken over, and `onStale`
   * hears who held it.
   */
  acquire(command: string, onStale: (stale: LeaseHolder) => void): Promise<HeldLease>;
  /** Who holds it now, if anyone (live or not); never changes anything. */
  holder(): Promise<LeaseHolder | null>;
  /** Refuse the workspace (as `acquire` would) when a live process other than this one holds it; never changes anything. */
  assertFree(): Promise<void>;
  /** Is `holder` still alive, by this backend's rule (same pid + start time; a beating heartbeat)? */
  isLive(holder: LeaseHolder): boolean;
}

/** What a backend can do beyond the common contract. */
export interface StoreCapabilities {
  /** a crash mid-append can leave a partial record (JSON Lines on a file system); `attach` repairs it */
  canTear: boolean;
}

/** Reading one workspace's journal: never changes anything, holds nothing open between calls. */
export interface JournalReader {
  /** how messages name the journal (a path, a database URL) */
  readonly location: string;
  readonly capabilities: StoreCapabilities;

  /** How messages name record `seq` (`…/journal.jsonl:12` for the file backend). */
  recordLocation(seq: number): string;

  /** The stored head, cheaply. */
  head(): Promise<StoredHead>;

  /**
   * The records in `range`, streamed a page at a time. Every record is checked (schema, seq, hash
   * chain, from the first record on); a bad one refuses the workspace with a `workspace`
   * YokeError naming it (`recordLocation`). A torn tail is reported on the last page, not repaired.
   */
  read(range?: ReadRange): AsyncIterable<RecordPage>;
}

/**
 * One workspace's journal, to read and to write. Only a writer that holds the lease and has
 * `attach`ed appends; reads never change anything.
 */
export interface JournalStore extends JournalReader {
  readonly lease: WorkspaceLease;

  /**
   * Become this journal's writer at `head` (the head of the records the caller just read and
   * checked). Refuses with `JournalHeadMoved` (journal-head.ts) when the stored journal does not end there. Where
   * a crash tore a partial record after `head`, it is cut off here (durably) and described; the
   * caller journals a `journal.repaired` record for it.
   */
  attach(head: JournalHead): Promise<TornTail | null>;

  /**
   * Append `batch` (consecutive records, the first one's `prev` = `expected.hash`) durably, all or
   * nothing: the single-writer fence. Refuses with `JournalHeadMoved` (journal-head.ts), writing nothing, when
   * the stored head is not `expected`. Resolves to the new head.
   */
  append(batch: readonly SealedRecord[], expected: JournalHead): Promise<JournalHead>;

  /**
   * The integrity check: is the stored journal still exactly what this writer attached to and
   * appended (not edited, replaced, removed or appended to by anyone else)?
   */
  untouched(): Promise<boolean>;

  /**
   * After `untouched()` said no: put the writer's own records back as the stored journal, keeping
   * the foreign version aside where the backend can. Resolves to where that version is kept (null:
   * there was nothing to keep). `before`: the stored journal's bytes before `own`'s first record,
   * for a writer that read the journal from a checkpoint (the file backend; others never get it).
   */
  rescue(own: readonly SealedRecord[], before?: Uint8Array): Promise<{ keptAs: string | null }>;

  /** Let go of what the store holds open (the lease is released on its own). */
  close(): Promise<void>;
}
