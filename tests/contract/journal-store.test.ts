// The JournalStore contract (store/journal/journal-store.ts): every backend passes this same suite.
// A backend joins with one line in BACKENDS (its harness: tests/contract/support/<name>-backend.ts).
import { ulid } from 'ulid';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EMPTY_HEAD, JournalHeadMoved, type JournalHead } from '../../store/journal/journal-head.js';
import type { HeldLease, JournalStore, LeaseHolder, SealedRecord } from '../../store/journal/journal-store.js';
import { JournalWriter } from '../../store/journal/journal-writer.js';
import { readJournal } from '../../store/journal/read-journal.js';
import { sealRecord } from '../../store/journal/record-chain.js';
import { SCHEMA_VERSION, type JournalRecord } from '../../store/journal/record.js';
import { YokeError } from '../../errors/yoke-error.js';
import { fileBackend } from './support/file-backend.js';
import { postgresBackend } from './support/postgres-backend.js';
import type { BackendHarness, StoreBackend } from './support/store-backend.js';

const BACKENDS: StoreBackend[] = [fileBackend, postgresBackend];

/** `pids.length` consecutive records continuing `head` (one `run.resumed` each, told apart by pid). */
function batch(head: JournalHead, pids: number[]): SealedRecord[] {
  let at = head;
  return pids.map((pid) => {
    const record = {
      v: SCHEMA_VERSION, seq: at.seq + 1, id: ulid(), ts: new Date().toISOString(), run: 'RUN-A', machine: 'loop', mv: 1,
      type: 'run.resumed', payload: { pid }, prev: at.hash,
    } as JournalRecord;
    const sealed = sealRecord(record);
    at = { seq: record.seq, hash: sealed.hash };
    return sealed;
  });
}

const pidsOf = (records: readonly JournalRecord[]) => records.map((record) => (record.type === 'run.resumed' ? record.payload.pid : null));

/** The error a promise rejects with (fails the test when it resolves). */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe.each(BACKENDS)('JournalStore contract: $name backend', (backend) => {
  let harness: BackendHarness;
  const stores: JournalStore[] = [];
  const leases: HeldLease[] = [];
  const open = (): JournalStore => {
    const store = harness.open();
    stores.push(store);
    return store;
  };
  /** A store attached at the empty head holding records with pids 1..n. */
  const written = async (n: number): Promise<{ store: JournalStore; head: JournalHead; sealed: SealedRecord[] }> => {
    const store = open();
    await store.attach(EMPTY_HEAD);
    const sealed = batch(EMPTY_HEAD, Array.from({ length: n }, (_, i) => i + 1));
    const head = await store.append(sealed, EMPTY_HEAD);
    return { store, head, sealed };
  };

  beforeEach(async () => {
    harness = await backend.create();
  });
  afterEach(async () => {
    for (const lease of leases.splice(0)) await lease.release();
    for (const store of stores.splice(0)) await store.close();
    await harness.dispose();
  });

  describe('append and read back', () => {
    it('an empty journal has the empty head and no records', async () => {
      const store = open();
      expect(await store.head()).toMatchObject({ ...EMPTY_HEAD, torn: false });
      expect(await readJournal(store)).toEqual({ records: [], head: EMPTY_HEAD, torn: null });
    });

    it('reads back what was appended, in order, with the head after each batch', async () => {
      const store = open();
      await store.attach(EMPTY_HEAD);
      const first = batch(EMPTY_HEAD, [1, 2]);
      const afterFirst = await store.append(first, EMPTY_HEAD);
      expect(afterFirst).toEqual({ seq: 2, hash: first[1]?.hash });
      const second = batch(afterFirst, [3, 4, 5]);
      const afterSecond = await store.append(second, afterFirst);
      expect(afterSecond).toEqual({ seq: 5, hash: second[2]?.hash });

      const reader = open(); // another process's view
      expect(await reader.head()).toMatchObject({ ...afterSecond, torn: false });
      const read = await readJournal(reader);
      expect(read.records).toEqual([...first, ...second].map((sealed) => sealed.record));
      expect(read.head).toEqual(afterSecond);
      expect(read.torn).toBeNull();
    });

    it('streams pages, from a seq and up to a seq, checking the chain from the first record', async () => {
      const { head } = await written(3000);
      const reader = open();
      let pages = 0;
      let seen = 0;
      for await (const page of reader.read()) {
        pages += 1;
        seen += page.records.length;
        expect(page.head.seq).toBe(page.records.at(-1)?.seq ?? page.head.seq);
      }
      expect(seen).toBe(3000);
      expect(pages).toBeGreaterThan(1);

      const middle = await readJournal(reader, { fromSeq: 1200, toSeq: 1204 });
      expect(middle.records.map((record) => record.seq)).toEqual([1200, 1201, 1202, 1203, 1204]);
      expect(middle.head.seq).toBe(1204);
      const tail = await readJournal(reader, { fromSeq: 2999 });
      expect(pidsOf(tail.records)).toEqual([2999, 3000]);
      expect(tail.head).toEqual(head);
    });

    it('stamps the stored head so that any change shows, even one that keeps the head (or gives no stamp)', async () => {
      const { store, head } = await written(3);
      const before = await open().head();
      expect(before).toMatchObject(head);
      if (before.stamp === null) return; // a backend without stamps keys caches on the head alone
      await harness.editRecord(2, (record) => {
        record.payload = { pid: 222 };
      });
      const after = await open().head();
      expect(after).toMatchObject(head);
      expect(after.stamp).not.toBe(before.stamp);
      expect(await store.untouched()).toBe(false);
    });

    it('names records the way its messages do', () => {
      const store = open();
      expect(store.recordLocation(7)).toContain(store.location);
      expect(store.recordLocation(7)).not.toBe(store.recordLocation(8));
    });
  });

  describe('the single-writer fence', () => {
    it('refuses an append at a stale head (two writers) and writes nothing', async () => {
      const a = open();
      const b = open();
      await a.attach(EMPTY_HEAD);
      await b.attach(EMPTY_HEAD);
      const head = await a.append(batch(EMPTY_HEAD, [1]), EMPTY_HEAD);

      const refused = await rejection(b.append(batch(EMPTY_HEAD, [99]), EMPTY_HEAD));

      expect(refused).toBeInstanceOf(JournalHeadMoved);
      expect((refused as YokeError).code).toBe('workspace');
      expect((refused as JournalHeadMoved).expected).toEqual(EMPTY_HEAD);
      const read = await readJournal(open());
      expect(pidsOf(read.records)).toEqual([1]);
      expect(read.head).toEqual(head);
      // the writer that holds the real head goes on
      expect((await a.append(batch(head, [2]), head)).seq).toBe(2);
    });

    it('refuses to attach at a head the journal does not end at', async () => {
      const { head } = await written(2);
      const late = open();
      expect(await rejection(late.attach(EMPTY_HEAD))).toBeInstanceOf(JournalHeadMoved);
      await expect(late.attach(head)).resolves.toBeNull();
    });

    it('two writers on top of the stores: the second flush is refused, the first writer\'s records stand', async () => {
      const first = await JournalWriter.open(open(), { warn: () => undefined });
      const second = await JournalWriter.open(open(), { warn: () => undefined });
      await first.append({ type: 'run.resumed', run: 'RUN-A', machine: 'loop', mv: 1, payload: { pid: 1 } });
      second.stage({ type: 'run.resumed', run: 'RUN-A', machine: 'loop', mv: 1, payload: { pid: 2 } });
      expect(await rejection(second.flush())).toBeInstanceOf(JournalHeadMoved);
      // broken from then on: what it staged is not known to be stored
      expect(await rejection(second.flush())).toBeInstanceOf(JournalHeadMoved);
      expect(pidsOf((await readJournal(open())).records)).toEqual([1]);
    });
  });

  describe('the workspace lease', () => {
    const take = async (store: JournalStore, command = 'yoke run', onStale: (stale: LeaseHolder) => void = () => undefined): Promise<HeldLease> => {
      const lease = await store.lease.acquire(command, onStale);
      leases.push(lease);
      return lease;
    };

    it('is held by this process and released', async () => {
      const store = open();
      expect(await store.lease.holder()).toBeNull();
      const lease = await take(store, 'yoke stash');
      expect(lease.holder).toMatchObject({ pid: process.pid, command: 'yoke stash' });
      expect(await store.lease.holder()).toEqual(lease.holder);
      expect(store.lease.isLive(lease.holder)).toBe(true);
      expect(await lease.held()).toBe(true);
      await lease.renew();
      await lease.release();
      expect(await store.lease.holder()).toBeNull();
    });

    it('excludes a second live holder: another process, or a second acquire here', async () => {
      const elsewhere = await harness.plantLease('live');
      const refused = await rejection(take(open()));
      expect(refused).toBeInstanceOf(YokeError);
      expect((refused as YokeError).code).toBe('workspace');
      expect((refused as YokeError).message).toContain(String(elsewhere.pid));
      expect(await open().lease.holder()).toEqual(elsewhere);
    });

    it('a second acquire in the same process is refused while the first holds it', async () => {
      await take(open());
      expect(((await rejection(take(open()))) as YokeError).code).toBe('workspace');
    });

    it('takes over a stale lease and says whose it was', async () => {
      const stale = await harness.plantLease('stale');
      const heard: LeaseHolder[] = [];
      const store = open();
      expect(store.lease.isLive(stale)).toBe(false);
      const lease = await take(store, 'yoke run', (holder) => heard.push(holder));
      expect(heard).toEqual([stale]);
      expect(lease.holder.pid).toBe(process.pid);
      expect(await store.lease.holder()).toEqual(lease.holder);
    });
  });

  describe('the chain is verified', () => {
    it('an edited record breaks the chain at the next one, and the read refuses it naming that record', async () => {
      const { store } = await written(4);
      await harness.editRecord(2, (record) => {
        record.payload = { pid: 222 };
      });
      const refused = await rejection(readJournal(open()));
      expect(refused).toBeInstanceOf(YokeError);
      expect((refused as YokeError).code).toBe('workspace');
      expect((refused as YokeError).message).toContain(`${store.recordLocation(3)}:`);
      expect((refused as YokeError).message).toMatch(/chain is broken/);
      expect((refused as YokeError).message).toMatch(backend.remedy);
    });

    it('a record edited into an invalid one is refused naming it', async () => {
      const { store } = await written(3);
      await harness.editRecord(3, (record) => {
        record.payload = { pid: 'not a number' };
      });
      const refused = (await rejection(readJournal(open()))) as YokeError;
      expect(refused.code).toBe('workspace');
      expect(refused.message).toContain(`${store.recordLocation(3)}:`);
      expect(refused.message).toMatch(/run\.resumed payload/);
    });
  });

  describe('integrity', () => {
    it('is intact after this writer\'s own appends, not after an outside edit; the rescue puts the writer\'s records back', async () => {
      const { store, head, sealed } = await written(3);
      expect(await store.untouched()).toBe(true);
      await harness.editRecord(2, (record) => {
        record.payload = { pid: 222 };
      });
      expect(await store.untouched()).toBe(false);
      // nor may it append over the change
      expect(await rejection(store.append(batch(head, [4]), head))).toBeInstanceOf(JournalHeadMoved);

      await store.rescue(sealed);
      expect(await store.untouched()).toBe(true);
      const read = await readJournal(open());
      expect(read.records).toEqual(sealed.map((own) => own.record));
      expect((await store.append(batch(read.head, [4]), read.head)).seq).toBe(4);
    });
  });

  describe('a torn tail', () => {
    it('the backend says whether it can tear, as its harness declares', () => {
      expect(open().capabilities.canTear).toBe(backend.canTear);
    });

    // Only the tests that apply are defined (nothing is reported skipped): a backend that cannot tear
    // (one transaction per append) proves that instead.
    const ifTearing = backend.canTear ? it : () => undefined;
    const ifNotTearing = backend.canTear ? () => undefined : it;

    ifNotTearing('never reports a torn tail: not in the head, not in a read, not on attach', async () => {
      const { head } = await written(2);
      expect(await open().head()).toMatchObject({ ...head, torn: false });
      expect((await readJournal(open())).torn).toBeNull();
      await expect(open().attach(head)).resolves.toBeNull();
    });

    ifTearing('is reported by reads, left alone, and cut off (durably, described) by attach', async () => {
      const probe = open();
      const { head } = await written(2);
      const bytes = await harness.tear();

      expect(await open().head()).toMatchObject({ ...head, torn: true });
      const read = await readJournal(open());
      expect(pidsOf(read.records)).toEqual([1, 2]);
      expect(read.torn).toMatchObject({ bytes, where: expect.stringContaining(probe.location) as string });
      expect((await open().head()).torn).toBe(true); // reads repair nothing

      const writer = open();
      const cut = await writer.attach(head);
      expect(cut).toEqual(read.torn);
      expect(await open().head()).toMatchObject({ ...head, torn: false });
      expect((await writer.append(batch(head, [3]), head)).seq).toBe(3);
      expect(pidsOf((await readJournal(open())).records)).toEqual([1, 2, 3]);
    });

    ifTearing('a writer journals the repair as journal.repaired naming the offset', async () => {
      await written(2);
      const bytes = await harness.tear();
      const read = await readJournal(open());
      const warnings: string[] = [];
      const writer = await JournalWriter.open(open(), { warn: (message) => warnings.push(message) });
      expect(warnings).toEqual([expect.stringContaining(`removed a torn last line (${bytes} bytes)`)]);
      const repair = writer.records.at(-1);
      expect(repair).toMatchObject({ seq: 3, type: 'journal.repaired', payload: { offset: read.torn?.offset, droppedBytes: bytes } });
      await writer.close();
      const again = await readJournal(open());
      expect(again.records.at(-1)).toEqual(repair);
      expect(again.torn).toBeNull();
    });
  });
});
