// The PostgreSQL backend's reading side: one workspace's rows of yoke_journal, keyed (workspace, seq).
import { createHash } from 'node:crypto';
import type { PoolClient } from 'pg';
import { EMPTY_HEAD, type JournalHead } from '../journal-head.js';
import type { JournalReader, ReadRange, RecordPage, StoredHead } from '../journal-store.js';
import type { JournalRecord } from '../record.js';
import { withClient } from './store-pool.js';
import { assertStoreReady } from './store-schema.js';
import { redactStoreUrl } from './store-url.js';

/** Records per page of a read (one query each). */
const PAGE_RECORDS = 1024;

/** Reads workspace `workspace`'s journal in the store at `url`; never writes. */
export class PostgresJournalReader implements JournalReader {
  readonly capabilities = { canTear: false };
  readonly location: string;

  constructor(
    protected readonly url: string,
    readonly workspace: string,
  ) {
    this.location = `${redactStoreUrl(url)} workspace ${workspace}`;
  }

  recordLocation(seq: number): string {
    return `${this.location} record ${seq}`;
  }

  async head(): Promise<StoredHead> {
    await assertStoreReady(this.url);
    return withClient(this.url, async (client) => {
      const { head, revision } = await storedHead(client, this.workspace);
      return { ...head, torn: false, stamp: revision };
    });
  }

  async *read(range: ReadRange = {}): AsyncGenerator<RecordPage> {
    await assertStoreReady(this.url);
    const { JournalChain, POSTGRES_JOURNAL_REMEDY } = await import('../record-chain.js');
    const from = range.fromSeq ?? 1;
    const to = range.toSeq ?? Number.MAX_SAFE_INTEGER;
    // Every read checks the chain from the first record, as the file backend does.
    const chain = new JournalChain((seq) => this.recordLocation(seq), undefined, POSTGRES_JOURNAL_REMEDY);
    let page: JournalRecord[] = [];
    for (;;) {
      const rows = await withClient(this.url, (client) => client.query<{ seq: string; text: string }>(
        'SELECT seq, text FROM yoke_journal WHERE workspace = $1 AND seq > $2 AND seq <= $3 ORDER BY seq LIMIT $4',
        [this.workspace, chain.seq, to, PAGE_RECORDS],
      ));
      for (const row of rows.rows) {
        const record = chain.accept(row.text, Number(row.seq));
        if (record.seq >= from) page.push(record);
      }
      const done = rows.rows.length < PAGE_RECORDS || chain.seq >= to;
      if (done) break;
      if (page.length > 0) {
        yield { records: page, head: chain.head, torn: null };
        page = [];
      }
    }
    yield { records: page, head: chain.head, torn: null };
  }
}

/** The workspace's last record (its hash recomputed from the stored text, as record-chain.ts does: no schemas load for a head) and its revision, the stamp. */
export async function storedHead(client: PoolClient, workspace: string): Promise<{ head: JournalHead; revision: string }> {
  const result = await client.query<{ revision: string | null; seq: string | null; text: string | null }>(
    `SELECT w.revision, j.seq, j.text FROM (SELECT $1::text AS name) n
       LEFT JOIN yoke_workspace w ON w.name = n.name
       LEFT JOIN LATERAL (SELECT seq, text FROM yoke_journal WHERE workspace = n.name ORDER BY seq DESC LIMIT 1) j ON true`,
    [workspace],
  );
  const row = result.rows[0];
  const revision = `revision ${row?.revision ?? 'none'}`;
  if (!row || row.seq === null || row.text === null) return { head: EMPTY_HEAD, revision };
  return { head: { seq: Number(row.seq), hash: createHash('sha256').update(row.text).digest('hex') }, revision };
}
