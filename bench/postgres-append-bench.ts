// Benchmark: a journal append on the PostgreSQL store (a real throwaway cluster on loopback, fsync on)
// against the file journal, in the same run: latency per flush (p50, p95) and throughput.
import { join } from 'node:path';
import { openFileJournal } from '../store/journal/file/open-file-journal.js';
import { JournalWriter } from '../store/journal/journal-writer.js';
import { PostgresJournalStore } from '../store/journal/postgres/postgres-journal-store.js';
import { closeStorePools } from '../store/journal/postgres/store-pool.js';
import { initStore } from '../store/journal/postgres/store-schema.js';
import { startPostgresCluster } from '../tests/support/postgres-cluster.js';
import { verdict } from './bench-timing.js';

const DRAFT = { type: 'run.resumed' as const, run: '01BENCHRVN0000000000000000', machine: 'loop', mv: 1, payload: { pid: 1 } };

/** Milliseconds of each of `n` single-record appends. */
async function latencies(writer: JournalWriter, n: number): Promise<number[]> {
  const each: number[] = [];
  for (let i = 0; i < n; i += 1) {
    const start = process.hrtime.bigint();
    await writer.append(DRAFT);
    each.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return each;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

/** Append latency, PostgreSQL vs file; the cluster is started here and stopped at the end (it must start: no silent skip). */
export async function postgresAppendBench(work: string, quick: boolean, report: (name: string, lines: string[]) => void): Promise<void> {
  const n = quick ? 200 : 2000;
  const cluster = await startPostgresCluster({ durable: true });
  try {
    const url = cluster.url();
    await initStore(url);
    const pgWriter = await JournalWriter.open(new PostgresJournalStore(url, 'bench', { warn: () => undefined }), { warn: () => undefined });
    await latencies(pgWriter, Math.min(50, n)); // warm the pool and the plan cache
    const pgTimes = await latencies(pgWriter, n);
    await pgWriter.close();
    const fileWriter = await openFileJournal(join(work, 'append-compare.jsonl'));
    const fileTimes = await latencies(fileWriter, n);
    await fileWriter.close();
    const pg50 = percentile(pgTimes, 50);
    const file50 = percentile(fileTimes, 50);
    const total = (times: number[]) => times.reduce((sum, ms) => sum + ms, 0);
    report(`journal append: PostgreSQL (loopback, fsync on) vs the file journal (${n} single-record flushes each)`, [
      `file:       p50 ${file50.toFixed(3)} ms, p95 ${percentile(fileTimes, 95).toFixed(3)} ms, ${Math.round(n / (total(fileTimes) / 1000))} appends/s`,
      `PostgreSQL: p50 ${pg50.toFixed(3)} ms, p95 ${percentile(pgTimes, 95).toFixed(3)} ms, ${Math.round(n / (total(pgTimes) / 1000))} appends/s`,
      `PostgreSQL / file at p50: ${(pg50 / Math.max(file50, 0.001)).toFixed(2)}x; ${verdict('append p50 ≤ 5 ms on loopback', pg50 <= 5, quick, 'one transaction: lock the workspace row, insert, commit (a WAL flush)')}`,
    ]);
  } finally {
    await closeStorePools();
    cluster.stop();
  }
}
