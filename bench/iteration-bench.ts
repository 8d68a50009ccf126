// Benchmark (yoke issues #7 and #15): per-iteration overhead of `yoke run` against a plain
// shell loop doing the same process spawns and git commits.
//
// The workload, both sides: N iterations of (1) the agent command `sh <agent.sh>` run by `sh -c`
// with a prompt on stdin, (2) the guard command `true` run by `sh -c` (yoke runs every configured
// command through `sh -c`, DESIGN §3, so the plain loop does too), (3) `git add -A && git commit`.
// Whatever yoke does beyond that (journal + fsync, spec restore, boundary scan, guard-results.md,
// process-group bookkeeping, node start-up) is its overhead.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { verdict } from './bench-timing.js';

type Report = (name: string, lines: string[]) => void;

/** Milliseconds taken by a synchronous call. */
function timed(fn: () => void): number {
  const start = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** A git repository with one commit and an identity, as a user's project would be. */
export function makeRepo(dir: string): void {
  mkdirSync(dir, { recursive: true });
  const git = (...args: string[]): void => void execFileSync('git', args, { cwd: dir, stdio: 'ignore' });
  git('init', '-q');
  git('config', 'user.name', 'bench');
  git('config', 'user.email', 'bench@example.invalid');
  writeFileSync(join(dir, 'README'), 'bench\n');
  git('add', '-A');
  git('commit', '-qm', 'init');
}

/** Mean milliseconds per effect kind, from a journal's effect.started → effect.completed timestamps (fsync of the start included). */
function effectTimes(journal: string): Map<string, { total: number; count: number }> {
  const started = new Map<string, number>();
  const times = new Map<string, { total: number; count: number }>();
  for (const line of readFileSync(journal, 'utf8').split('\n')) {
    if (line === '') continue;
    const record = JSON.parse(line) as { type: string; ts: string; payload: { key?: string; kind?: string } };
    const { key, kind } = record.payload;
    if (key === undefined || kind === undefined) continue;
    if (record.type === 'effect.started') started.set(key, Date.parse(record.ts));
    if (record.type === 'effect.completed' && started.has(key)) {
      const entry = times.get(kind) ?? { total: 0, count: 0 };
      entry.total += Date.parse(record.ts) - (started.get(key) ?? 0);
      entry.count += 1;
      times.set(kind, entry);
    }
  }
  return times;
}

/** One yoke run and one plain loop of `iterations` iterations, each in a fresh repository under `dir`. */
function round(dir: string, yoke: string, iterations: number): { yokeMs: number; plainMs: number; journal: string } {
  const repo = join(dir, 'yoke');
  const plain = join(dir, 'plain');
  makeRepo(repo);
  makeRepo(plain);
  const agent = join(dir, 'agent.sh');
  writeFileSync(
    agent,
    '#!/bin/sh\ncat >/dev/null\necho "$YOKE_ITERATION" >> work.txt\n' +
      `if [ "$YOKE_ITERATION" -ge ${iterations} ]; then printf 'STATUS: DONE\\n' > .loop/notes.md; ` +
      "else printf 'STATUS: IN_PROGRESS\\n' > .loop/notes.md; fi\n",
  );
  execFileSync(process.execPath, [yoke, 'init', 'loop'], { cwd: repo, stdio: 'ignore' });
  writeFileSync(join(repo, '.loop', 'yoke.conf'), `mode loop\nagent cmd sh ${agent}\nmax-iterations ${iterations}\nguard ok true\ncommit each\n`);
  let status: number | null = null;
  const yokeMs = timed(() => {
    status = spawnSync(process.execPath, [yoke, 'run', '--quiet'], { cwd: repo, stdio: 'ignore' }).status;
  });
  if (status !== 0) throw new Error(`the benchmark's yoke run failed with exit ${String(status ?? 'signal')} in ${repo}`);

  mkdirSync(join(plain, '.loop'));
  const prompt = join(dir, 'prompt.md');
  writeFileSync(prompt, readFileSync(join(repo, '.loop', 'protocol.md'), 'utf8'));
  const script =
    `for i in $(seq 1 ${iterations}); do ` +
    `YOKE_ITERATION=$i sh -c 'sh ${agent}' < ${prompt}; ` +
    "sh -c 'true' </dev/null; " +
    'git add -A && git commit -qm "iteration $i"; done';
  const plainMs = timed(() => {
    status = spawnSync('sh', ['-c', script], { cwd: plain, stdio: 'ignore' }).status;
  });
  if (status !== 0) throw new Error(`the benchmark's plain loop failed with exit ${String(status ?? 'signal')} in ${plain}`);
  return { yokeMs, plainMs, journal: join(repo, '.loop', '.journal', 'journal.jsonl') };
}

/** The target: a loop iteration costs at most this many times the plain loop's (yoke issue #15). */
const ITERATION_TARGET = 2.0;

/**
 * Per-iteration overhead: `rounds` interleaved pairs (yoke, plain) at 20 and at 100 iterations so
 * that machine load hits both alike; prints every round, the median ratio against the target, and
 * the mean time per effect kind of the last run.
 */
export function iterationBench(work: string, yoke: string, quick: boolean, report: Report): void {
  for (const iterations of quick ? [3] : [20, 100]) {
    const rounds = quick || iterations > 20 ? 1 : 3;
    const lines: string[] = [];
    const ratios: { ratio: number; overhead: number }[] = [];
    let journal = '';
    for (let i = 0; i < rounds; i += 1) {
      const result = round(join(work, `iteration-${iterations}-${i}`), yoke, iterations);
      journal = result.journal;
      const overhead = (result.yokeMs - result.plainMs) / iterations;
      ratios.push({ ratio: result.yokeMs / result.plainMs, overhead });
      lines.push(
        `round ${i + 1}: plain loop ${result.plainMs.toFixed(0)} ms (${(result.plainMs / iterations).toFixed(1)} ms/iteration), ` +
          `yoke ${result.yokeMs.toFixed(0)} ms (${(result.yokeMs / iterations).toFixed(1)} ms/iteration), ` +
          `overhead ${overhead.toFixed(1)} ms/iteration, ratio ${(result.yokeMs / result.plainMs).toFixed(2)}x`,
      );
    }
    const median = [...ratios].sort((a, b) => a.ratio - b.ratio)[Math.floor(ratios.length / 2)] ?? { ratio: NaN, overhead: NaN };
    lines.push(`median: ratio ${median.ratio.toFixed(2)}x, about ${median.overhead.toFixed(0)} ms of yoke per iteration (${verdict(`≤ ${ITERATION_TARGET}x`, median.ratio <= ITERATION_TARGET, quick, 'fsyncs and node-started processes per iteration; see docs/performance.md')})`);
    const kinds = [...effectTimes(journal)].sort((a, b) => b[1].total - a[1].total);
    lines.push(`last yoke run, mean ms per effect (journal timestamps, write-ahead fsync included): ${kinds.map(([kind, t]) => `${kind} ${(t.total / t.count).toFixed(1)}`).join(', ')}`);
    report(`per-iteration overhead: ${iterations} iterations, \`cmd\` agent, \`true\` guard, commit each (${rounds} round${rounds === 1 ? '' : 's'})`, lines);
  }
}
