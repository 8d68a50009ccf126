// `npm run bench [-- --quick]`: yoke's own costs, each as a ratio measured in the same run.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readJournalFile } from '../store/journal-file.js';
import { findRun, foldRun } from '../store/journal-runs.js';
import { Journal } from '../store/journal.js';
import { replayRssBench } from './replay-rss-bench.js';
import { resumeBench } from './resume-bench.js';
import { stashBench } from './stash-bench.js';
import { verifyBench } from './verify-bench.js';
import { writeSyntheticRun } from './synthetic-run.js';

const quick = process.argv.includes('--quick');
const yoke = resolve(fileURLToPath(import.meta.url), '..', '..', 'cli', 'main.js');
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

function resumeFold(): void {
  const iterations = quick ? 1000 : 10_000;
  const path = join(work, 'synthetic.jsonl');
  const records = writeSyntheticRun(path, iterations);
  const raw = time(() => readFileSync(path, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as unknown).length);
  const full = time(() => {
    const { records: parsed } = readJournalFile(path);
    return foldRun(parsed, findRun(parsed));
  });
  report(`resume: verify + fold a ${iterations}-iteration journal (${records} records)`, [
    `raw JSON.parse of every line: ${raw.ms.toFixed(0)} ms`,
    `yoke read (schema + hash chain) and fold through the machine: ${full.ms.toFixed(0)} ms (${Math.round(records / (full.ms / 1000))} records/s)`,
    `ratio to raw JSON.parse: ${(full.ms / raw.ms).toFixed(1)}x`,
  ]);
}

function iterationOverhead(): void {
  const iterations = quick ? 3 : 20;
  const repo = join(work, 'repo');
  const plain = join(work, 'plain');
  for (const dir of [repo, plain]) {
    mkdirSync(dir);
    execFileSync('git', ['init', '-q'], { cwd: dir });
    execFileSync('git', ['config', 'user.name', 'bench'], { cwd: dir });
    execFileSync('git', ['config', 'user.email', 'bench@example.invalid'], { cwd: dir });
    writeFileSync(join(dir, 'README'), 'bench\n');
    execFileSync('git', ['add', '-A'], { cwd: dir });
    execFileSync('git', ['commit', '-qm', 'init'], { cwd: dir });
  }
  const agent = join(work, 'agent.sh');
  writeFileSync(agent, `#!/bin/sh\ncat >/dev/null\necho "$YOKE_ITERATION" >> work.txt\nif [ "$YOKE_ITERATION" -ge ${iterations} ]; then printf 'STATUS: DONE\\n' > .loop/notes.md; else printf 'STATUS: IN_PROGRESS\\n' > .loop/notes.md; fi\n`);
  execFileSync(process.execPath, [yoke, 'init', 'loop'], { cwd: repo, stdio: 'ignore' });
  writeFileSync(join(repo, '.loop', 'yoke.conf'), `mode loop\nagent cmd sh ${agent}\nmax-iterations ${iterations}\nguard ok true\ncommit each\n`);
  const withYoke = time(() => spawnSync(process.execPath, [yoke, 'run', '--quiet'], { cwd: repo, stdio: 'ignore' }).status);
  if (withYoke.value !== 0) throw new Error(`bench run failed with exit ${withYoke.value ?? 'signal'}`);
  mkdirSync(join(plain, '.loop'));
  const script = `for i in $(seq 1 ${iterations}); do YOKE_ITERATION=$i sh ${agent} </dev/null; true; git add -A; git commit -qm "iteration $i"; done`;
  const shell = time(() => spawnSync('sh', ['-c', script], { cwd: plain, stdio: 'ignore' }).status);
  const overhead = (withYoke.ms - shell.ms) / iterations;
  report(`per-iteration overhead: ${iterations} iterations, sh agent, \`true\` guard, commit each`, [
    `plain shell loop (same spawns and commits): ${shell.ms.toFixed(0)} ms`,
    `yoke run (journal, fsync, boundary scan, spec restore, process groups): ${withYoke.ms.toFixed(0)} ms`,
    `ratio: ${(withYoke.ms / shell.ms).toFixed(2)}x, about ${overhead.toFixed(0)} ms of yoke per iteration (target for a later release: ≤ 1.5x)`,
  ]);
}

try {
  process.stdout.write(`yoke benchmarks${quick ? ' (--quick: small sizes, to prove they run)' : ''}\n`);
  journalAppend();
  resumeFold();
  iterationOverhead();
  stashBench(work, yoke, quick, report);
  resumeBench(work, quick, report);
  verifyBench(work, quick, report);
  await replayRssBench(work, yoke, quick, report);
} finally {
  rmSync(work, { recursive: true, force: true });
}
