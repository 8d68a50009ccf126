// The journal writer: stages records (seq, id, time, chain) in memory, then appends each batch to
// its store at the head it expects. The same for every backend.
import { monotonicFactory } from 'ulid';
import { bufferedRandom } from './buffered-random.js';
import { EMPTY_HEAD, sameHead, type JournalHead } from './journal-head.js';
import type { JournalStore, SealedRecord, StoredHead } from './journal-store.js';
import { readJournal, type JournalBase, type JournalRead } from './read-journal.js';
import { sealRecord } from './record-chain.js';
import { SCHEMA_VERSION, type JournalRecord, type RecordDraft } from './record.js';

/** How to open a writer. */
export interface WriterOptions {
  /** told about a torn tail that was cut off */
  warn: (message: string) => void;
  /** told about every record as it is staged (`yoke run --json`) */
  listener?: ((record: JournalRecord) => void) | null;
  /**
   * A read of the same store taken just before (e.g. before the lease was taken): used instead of
   * reading again when the store's head is still the head that read ended at.
   */
  known?: JournalRead | null;
}

/**
 * The one writer of a workspace's journal (its caller holds the lease).
 *
 * Durability: `stage()` assigns seq, ULID, time and `prev` synchronously and keeps the record in
 * memory (`records` holds every record, staged ones included: the fold reads them at once; a
 * writer opened on a read from a checkpoint holds, before `base`, only the records it kept);
 * `flush()` appends everything staged as one batch at the head the writer expects, so the store's
 * fence refuses it if anyone else wrote meanwhile. The runner flushes before executing any effect,
 * so `effect.started` is durable before the I/O it announces. Flushes run one after another; a
 * failed flush leaves the writer broken (every later flush fails with the same error), because
 * what it staged is no longer known to be stored or not.
 */
export class JournalWriter {
  /** told about every record as it is staged */
  listener: ((record: JournalRecord) => void) | null;
  private staged: SealedRecord[] = [];
  private readonly ulid = monotonicFactory(bufferedRandom());
  private lastHash: string;
  private seq: number;
  private durable: JournalHead;
  /** the last flush: the next one starts after it */
  private flushing: Promise<void> = Promise.resolve();
  private inFlight = 0;
  /** why a flush failed: every later flush fails with it */
  private broken: Error | null = null;

  private constructor(
    readonly store: JournalStore,
    /** every record, including staged ones (after a checkpoint's `base`: its kept records, then every record) */
    readonly records: JournalRecord[],
    head: JournalHead,
    listener: ((record: JournalRecord) => void) | null,
    private readonly from: JournalBase | null,
  ) {
    this.lastHash = head.hash;
    this.seq = head.seq;
    this.durable = head;
    this.listener = listener;
  }

  /**
   * Read and check the whole journal, become the store's writer, and repair a torn tail: the cut is
   * reported to `warn` and recorded as a `journal.repaired` record naming its offset. Damage other
   * than a torn tail refuses the workspace (a `workspace` YokeError naming the record).
   */
  static async open(store: JournalStore, options: WriterOptions): Promise<JournalWriter> {
    const known = options.known ?? null;
    const read = known !== null && (await stillAt(store, known)) ? known : await readJournal(store);
    const torn = await store.attach(read.head);
    const writer = new JournalWriter(store, [...read.records], read.head, options.listener ?? null, read.base ?? null);
    if (torn) {
      options.warn(`${torn.where}: removed a torn last line (${torn.bytes} bytes) left by a crash mid-write.`);
      await writer.append({ type: 'journal.repaired', run: null, machine: null, mv: null, payload: { offset: torn.offset, droppedBytes: torn.bytes } });
    }
    return writer;
  }

  /** The head including staged records (what the next record's `prev` is). */
  get head(): JournalHead {
    return { seq: this.seq, hash: this.lastHash };
  }

  /** The last record of which `records` holds only what a checkpoint kept (null: `records` holds every record). */
  get base(): JournalHead | null {
    return this.from?.head ?? null;
  }

  /** The head of what the store holds durably. */
  get durableHead(): JournalHead {
    return this.durable;
  }

  /** Add a record to the in-memory tail; it is durable once the next `flush()` resolves. */
  stage(draft: RecordDraft, now: number = Date.now()): JournalRecord {
    const record = {
      v: SCHEMA_VERSION,
      seq: this.seq + 1,
      id: this.ulid(now),
      ts: new Date(now).toISOString(),
      run: draft.run,
      machine: draft.machine,
      mv: draft.mv,
      type: draft.type,
      payload: draft.payload,
      prev: this.lastHash,
    } as JournalRecord;
    const sealed = sealRecord(record);
    this.seq = record.seq;
    this.lastHash = sealed.hash;
    this.staged.push(sealed);
    this.records.push(record);
    this.listener?.(record);
    return record;
  }

  /**
   * Append everything staged, durably, as one batch; resolves once it is stored. With no flush in
   * flight the append starts at once (the file backend has written and synced before this returns);
   * otherwise it starts after the one in flight.
   */
  flush(): Promise<void> {
    if (this.broken !== null) return Promise.reject(this.broken);
    const start = (): Promise<void> => this.appendStaged();
    const next = this.inFlight === 0 ? start() : this.flushing.then(start);
    this.inFlight += 1;
    this.flushing = next.finally(() => {
      this.inFlight -= 1;
    });
    return this.flushing;
  }

  /** Stage and flush one record. */
  async append(draft: RecordDraft): Promise<JournalRecord> {
    const record = this.stage(draft);
    await this.flush();
    return record;
  }

  /** The integrity check: is the stored journal still exactly what this writer wrote? */
  untouched(): Promise<boolean> {
    return this.store.untouched();
  }

  /**
   * After someone else changed the stored journal: put this writer's durable records back (checked
   * against the chain first), keeping the foreign version aside. Resolves to where it went.
   */
  async rescue(): Promise<{ keptAs: string | null }> {
    await this.flushing.catch(() => undefined); // the rescue stands on its own
    const base = this.from;
    const own = this.records.filter((record) => record.seq > (base?.head.seq ?? 0) && record.seq <= this.durable.seq).map(sealRecord);
    const end = own[own.length - 1]?.hash ?? base?.head.hash ?? EMPTY_HEAD.hash;
    if (end !== this.durable.hash) throw new Error('the in-memory journal no longer matches its own hash chain');
    if (base !== null && base.bytes === null) throw new Error('the journal before the checkpoint was read from was not kept, so it cannot be put back');
    return this.store.rescue(own, base?.bytes ?? undefined);
  }

  /** Flush what is staged, then let go of the store. */
  async close(): Promise<void> {
    try {
      await this.flush();
    } finally {
      await this.store.close();
    }
  }

  private async appendStaged(): Promise<void> {
    if (this.broken !== null) throw this.broken;
    if (this.staged.length === 0) return;
    const batch = this.staged;
    this.staged = [];
    try {
      this.durable = await this.store.append(batch, this.durable);
    } catch (error) {
      this.broken = error instanceof Error ? error : new Error(String(error));
      throw this.broken;
    }
  }
}

/** Does the store still end where `read` ended (nothing appended, nothing torn since)? */
async function stillAt(store: JournalStore, read: JournalRead): Promise<boolean> {
  if (read.torn !== null) return false;
  const head: StoredHead = await store.head();
  return !head.torn && sameHead(head, read.head);
}
