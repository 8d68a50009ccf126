// The PostgreSQL backend's writing side (DESIGN §14): appends as one transaction at the expected seq, the revision as integrity check, rescue.
import type { PoolClient } from 'pg';
import { die, readFailpoint, type Failpoint } from '../failpoint.js';
import { EMPTY_HEAD, JournalHeadMoved, sameHead, type JournalHead } from '../journal-head.js';
import type { JournalStore, SealedRecord, TornTail } from '../journal-store.js';
import { PostgresJournalReader, storedHead } from './postgres-journal-reader.js';
import { PostgresLease } from './postgres-lease.js';
import { inTransaction, isUniqueViolation, withClient } from './store-pool.js';
import { assertStoreReady } from './store-schema.js';

/** What the writer saw last: the head it appended and the workspace's revision right after. */
interface Attached {
  head: JournalHead;
  revision: string;
}

/**
 * Workspace `workspace`'s journal as rows of `yoke_journal` in the store at `url`, and the lease as
 * its row in `yoke_lease`. Durability: an append is one transaction (durable at COMMIT, as the
 * server's `synchronous_commit` says). The fence: the batch is inserted at the seq the writer
 * expects, under the workspace row's lock; the workspace's revision (bumped by a trigger on any
 * change to its rows, by anyone) must be the one this writer left, and a row already at that seq
 * is a unique violation. Either refuses with `JournalHeadMoved`, writing nothing.
 *
 * `YOKE_FAILPOINT=crash-after:<seq>` dies right after the batch holding that record committed.
 */
export class PostgresJournalStore extends PostgresJournalReader implements JournalStore {
  readonly lease: PostgresLease;
  private attached: Attached | null = null;
  private failpoint: Failpoint | null = null;

  constructor(url: string, workspace: string, private readonly options: { warn: (message: string) => void }) {
    super(url, workspace);
    this.lease = new PostgresLease(url, workspace);
  }

  async attach(head: JournalHead): Promise<TornTail | null> {
    if (this.attached) throw new Error(`${this.location} is attached already`);
    await assertStoreReady(this.url);
    this.failpoint = readFailpoint(process.env, this.options.warn);
    this.attached = await inTransaction(this.url, async (client) => {
      await client.query('INSERT INTO yoke_workspace (name) VALUES ($1) ON CONFLICT (name) DO NOTHING', [this.workspace]);
      await client.query('SELECT revision FROM yoke_workspace WHERE name = $1 FOR UPDATE', [this.workspace]);
      const stored = await storedHead(client, this.workspace);
      if (!sameHead(stored.head, head)) throw new JournalHeadMoved(this.location, head, stored.head);
      return { head, revision: stored.revision };
    });
    return null; // a transaction never leaves half a record
  }

  async append(batch: readonly SealedRecord[], expected: JournalHead): Promise<JournalHead> {
    const attached = this.writable();
    const first = batch[0];
    const last = batch[batch.length - 1];
    if (!sameHead(expected, attached.head)) {
      throw new JournalHeadMoved(this.location, expected, await withClient(this.url, async (client) => (await storedHead(client, this.workspace)).head));
    }
    if (!first || !last) return attached.head;
    if (first.record.seq !== expected.seq + 1 || first.record.prev !== expected.hash) {
      throw new Error(`a batch starting at seq ${first.record.seq} does not continue the head at seq ${expected.seq}`);
    }
    // One statement, one round trip: lock the workspace row, insert only if its revision is the one
    // this writer left; the statement trigger then bumps it by exactly one.
    const mine = attached.revision.replace(/^revision /, '');
    const revision = await withClient(this.url, async (client) => {
      let inserted: number;
      try {
        inserted = await insertRecords(client, this.workspace, batch, mine);
      } catch (error) {
        if (isUniqueViolation(error)) throw await this.moved(client, expected).catch(() => new JournalHeadMoved(this.location, expected, null));
        throw error;
      }
      if (inserted !== batch.length) throw await this.moved(client, expected);
      return `revision ${(BigInt(mine) + 1n).toString()}`;
    });
    attached.head = { seq: last.record.seq, hash: last.hash };
    attached.revision = revision;
    const point = this.failpoint;
    if (point?.kind === 'crash-after' && point.seq >= first.record.seq && point.seq <= last.record.seq) die();
    return attached.head;
  }

  async untouched(): Promise<boolean> {
    const attached = this.writable();
    const now = await withClient(this.url, (client) => storedHead(client, this.workspace));
    return now.revision === attached.revision && sameHead(now.head, attached.head);
  }

  async rescue(own: readonly SealedRecord[], before?: Uint8Array): Promise<{ keptAs: string | null }> {
    // a PostgreSQL journal is never read from a checkpoint (there is no journal file to hash)
    if (before !== undefined) throw new Error(`${this.location}: a rescue with the bytes before a checkpoint is for file journals`);
    const attached = this.writable();
    const result = await inTransaction(this.url, async (client) => {
      await client.query('SELECT revision FROM yoke_workspace WHERE name = $1 FOR UPDATE', [this.workspace]);
      const count = await client.query<{ n: string }>('SELECT count(*) AS n FROM yoke_journal WHERE workspace = $1', [this.workspace]);
      let keptAs: string | null = null;
      if (Number(count.rows[0]?.n ?? 0) > 0) {
        keptAs = `${this.workspace}@${new Date().toISOString()}`;
        await client.query('INSERT INTO yoke_journal_kept (kept_as, workspace, seq, text) SELECT $2, workspace, seq, text FROM yoke_journal WHERE workspace = $1', [this.workspace, keptAs]);
        await client.query('DELETE FROM yoke_journal WHERE workspace = $1', [this.workspace]);
      }
      if (own.length > 0) await insertRecords(client, this.workspace, own);
      return { keptAs, revision: (await storedHead(client, this.workspace)).revision };
    });
    const lastOwn = own[own.length - 1];
    attached.head = lastOwn ? { seq: lastOwn.record.seq, hash: lastOwn.hash } : EMPTY_HEAD;
    attached.revision = result.revision;
    return { keptAs: result.keptAs === null ? null : `yoke_journal_kept '${result.keptAs}' (${this.location})` };
  }

  close(): Promise<void> {
    this.attached = null; // the pool is the process's, shared by every store on this URL
    return Promise.resolve();
  }

  private writable(): Attached {
    if (!this.attached) throw new Error(`${this.location}: attach before writing`);
    return this.attached;
  }

  private async moved(client: PoolClient, expected: JournalHead): Promise<JournalHeadMoved> {
    return new JournalHeadMoved(this.location, expected, (await storedHead(client, this.workspace)).head);
  }
}

/**
 * Insert consecutive sealed records in one statement; `record` is the text as jsonb where jsonb can
 * hold it. With `revision`, only while the workspace's revision is that one (its row locked for the
 * statement); resolves to how many rows went in (0: the revision moved).
 */
async function insertRecords(client: PoolClient, workspace: string, batch: readonly SealedRecord[], revision: string | null = null): Promise<number> {
  const result = await client.query<{ inserted: string }>(
    `WITH locked AS (SELECT revision FROM yoke_workspace WHERE name = $1 FOR UPDATE),
     ins AS (
       INSERT INTO yoke_journal (workspace, seq, prev, hash, text, record)
       SELECT $1, s, p, h, t, CASE WHEN j THEN t::jsonb END FROM unnest($2::bigint[], $3::text[], $4::text[], $5::text[], $6::boolean[]) AS u (s, p, h, t, j)
       WHERE $7::bigint IS NULL OR (SELECT revision FROM locked) = $7::bigint
       RETURNING seq)
     SELECT count(*) AS inserted FROM ins`,
    [
      workspace,
      batch.map((sealed) => sealed.record.seq),
      batch.map((sealed) => sealed.record.prev),
      batch.map((sealed) => sealed.hash),
      batch.map((sealed) => sealed.text),
      // jsonb refuses the NUL character; such a record keeps its text only
      batch.map((sealed) => !sealed.text.includes('\\u0000')),
      revision,
    ],
  );
  return Number(result.rows[0]?.inserted ?? 0);
}
