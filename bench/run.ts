// `npm run bench [-- --quick]`: yoke's own costs, each as a ratio measured in the same run.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Journal } from '../store/journal/file/journal.js';
import { iterationBench } from './iteration-bench.js';
import { replayRssBench } from './replay-rss-bench.js';
import { resumeBench } from './resume-bench.js';
import { stashBench } from './stash-bench.js';
import { startupBench } from './startup-bench.js';
import { verifyBench } from './verify-bench.js';

const quick = process.argv.includes('--quick');
const yoke = resolve(fileURLToPath(import.meta.url), '..', '..', 'bundle', 'yoke.js');
const work = mkdtempSync(join(tmpdir(), 'yoke-bench-'));

function time<T>(fn: () => T): { ms: number; value: T } {
  const start = process.hrtime.bigint();
  const value = fn();
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, value };
}

function report(name: string, lines: string[]): void {
  process.stdout.write(`\n${name}\n${lines.map((line) => `  ${line}`).join('\n')}\n`);
}

function journalAppend(): void {
  const n = quick ? 300 : 3000;
  const draft = { type: 'run.resumed' as const, run: '01BENCHRVN0000000000000000', machine: 'loop', mv: 1, payload: { pid: 1 } };
  const single = Journal.open(join(work, 'append-1.jsonl'), () => undefined);
  const one = time(() => { for (let i = 0; i < n; i += 1) single.append(draft); });
  single.close();
  const batched = Journal.open(join(work, 'append-3.jsonl'), () => undefined);
  const three = time(() => {
    for (let i = 0; i < n; i += 3) { batched.stage(draft); batched.stage(draft); batched.stage(draft); batched.flush(); }
  });
  batched.close();
  report('journal append (fdatasync per flush)', [
    `one record per flush:    ${(one.ms / n).toFixed(3)} ms/record, ${Math.round(n / (one.ms / 1000))} records/s`,
    `three records per flush: ${(three.ms / n).toFixed(3)} ms/record (the runner's batch: completed + event + next started)`,
    `batching speed-up: ${(one.ms / three.ms).toFixed(2)}x`,
  ]);
}

try {
  process.stdout.write(`yoke benchmarks${quick ? ' (--quick: small sizes, to prove they run)' : ''}\n`);
  journalAppend();
  iterationBench(work, yoke, quick, report);
  stashBench(work, yoke, quick, report);
  startupBench(work, yoke, quick, report);
  resumeBench(work, quick, report);
  verifyBench(work, quick, report);
  await replayRssBench(work, yoke, quick, report);
} finally {
  rmSync(work, { recursive: true, force: true });
}
