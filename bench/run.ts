// `npm run bench [-- --quick]`: yoke's own costs, each as a ratio measured in the same run.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openFileJournal } from '../store/journal/file/open-file-journal.js';
import { fleetBench } from './fleet-bench.js';
import { gateBench } from './gate-bench.js';
import { iterationBench } from './iteration-bench.js';
import { parallelBench } from './parallel-bench.js';
import { postgresAppendBench } from './postgres-append-bench.js';
import { replayRssBench } from './replay-rss-bench.js';
import { resumeBench } from './resume-bench.js';
import { stashBench } from './stash-bench.js';
import { startupBench } from './startup-bench.js';
import { verifyBench } from './verify-bench.js';

const quick = process.argv.includes('--quick');
const yoke = resolve(fileURLToPath(import.meta.url), '..', '..', 'bundle', 'yoke.js');
const work = mkdtempSync(join(tmpdir(), 'yoke-bench-'));

async function time(fn: () => Promise<void>): Promise<number> {
  const start = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

function report(name: string, lines: string[]): void {
  process.stdout.write(`\n${name}\n${lines.map((line) => `  ${line}`).join('\n')}\n`);
}

async function journalAppend(): Promise<void> {
  const n = quick ? 300 : 3000;
  const draft = { type: 'run.resumed' as const, run: '01BENCHRVN0000000000000000', machine: 'loop', mv: 1, payload: { pid: 1 } };
  const single = await openFileJournal(join(work, 'append-1.jsonl'));
  const one = await time(async () => { for (let i = 0; i < n; i += 1) await single.append(draft); });
  await single.close();
  const batched = await openFileJournal(join(work, 'append-3.jsonl'));
  const three = await time(async () => {
    for (let i = 0; i < n; i += 3) { batched.stage(draft); batched.stage(draft); batched.stage(draft); await batched.flush(); }
  });
  await batched.close();
  report('journal append (fdatasync per flush)', [
    `one record per flush:    ${(one / n).toFixed(3)} ms/record, ${Math.round(n / (one / 1000))} records/s`,
    `three records per flush: ${(three / n).toFixed(3)} ms/record (the runner's batch: completed + event + next started)`,
    `batching speed-up: ${(one / three).toFixed(2)}x`,
  ]);
}

try {
  process.stdout.write(`yoke benchmarks${quick ? ' (--quick: small sizes, to prove they run)' : ''}\n`);
  // `npm run bench -- --only startup,iteration`: just those sections.
  const only = process.argv.find((arg, i) => process.argv[i - 1] === '--only')?.split(',');
  const wanted = (name: string): boolean => only === undefined || only.includes(name);
  if (wanted('append')) await journalAppend();
  if (wanted('postgres')) await postgresAppendBench(work, quick, report);
  if (wanted('fleet')) await fleetBench(work, yoke, quick, report);
  if (wanted('iteration')) iterationBench(work, yoke, quick, report);
  if (wanted('stash')) stashBench(work, yoke, quick, report);
  if (wanted('startup')) startupBench(work, yoke, quick, report);
  if (wanted('gate')) await gateBench(work, yoke, quick, report);
  if (wanted('resume')) await resumeBench(work, yoke, quick, report);
  if (wanted('verify')) await verifyBench(work, quick, report);
  if (wanted('parallel')) parallelBench(work, yoke, quick, report);
  if (wanted('rss')) await replayRssBench(work, yoke, quick, report);
} finally {
  rmSync(work, { recursive: true, force: true });
}
