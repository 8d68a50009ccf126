// Benchmark (yoke issue 19): the fleet against a local run of the same workload, and claim latency,
// on a real throwaway PostgreSQL cluster (fsync on), real bare git remotes and one real `yoke worker`.
//
// Overhead: N iterations of a `cmd` agent that appends to a file, a `true` guard, commit each; once
// as a local `yoke run` on the file journal, once queued (`yoke queue add`) and run by the worker
// (fresh clone, the journal in PostgreSQL, a push to refs/yoke/runs/<run> after every commit). The
// per-iteration figure is the run's span in its journal (run.started → run.finished) over N, so the
// worker's fixed costs (poll, clone, start) are left to the claim latency; the wall times end to
// end are printed next to it.
//
// Claim latency: `yoke queue add` returning → the scripted agent's first instruction (it writes the
// epoch in ns), on an idle worker polling at its default interval.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { startPostgresCluster } from '../tests/support/postgres-cluster.js';
import { verdict } from './bench-timing.js';
import { effectTimes, fileRecords, localEnv, makeProject, queueAdd, runSpanMs, startWorker, storeRecords, waitForJob, waitForWorker, writeAgent, type BenchWorker } from './fleet-fixture.js';

type Report = (name: string, lines: string[]) => void;

/** The target of issue 19: a fleet iteration costs at most this many times a local one. */
const FLEET_TARGET = 1.5;

interface Side {
  /** the run's span in its journal, per iteration */
  perIterationMs: number;
  /** spawn → exit (local), queue add returned → job completed (fleet) */
  wallMs: number;
  /** ms per effect kind, from the journal */
  effects: Map<string, { total: number; count: number }>;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

/** One local `yoke run` of the workload in a fresh project. */
function localRound(dir: string, yoke: string, agent: string, iterations: number): Side {
  makeProject(dir, yoke, `sh ${agent}`, iterations);
  const start = process.hrtime.bigint();
  const run = spawnSync(process.execPath, [yoke, 'run', '--quiet'], { cwd: dir, stdio: 'ignore', env: localEnv() });
  const wallMs = Number(process.hrtime.bigint() - start) / 1e6;
  if (run.status !== 0) throw new Error(`the benchmark's local yoke run failed with exit ${String(run.status ?? run.signal)} in ${dir}`);
  const records = fileRecords(join(dir, '.loop', '.journal', 'journal.jsonl'));
  return { perIterationMs: runSpanMs(records) / iterations, wallMs, effects: effectTimes(records) };
}

/** The same workload queued for the worker, in a fresh project pushed to a bare remote. */
async function fleetRound(ctx: FleetContext, dir: string, name: string, agent: string, iterations: number): Promise<Side> {
  const remote = makeProject(dir, ctx.yoke, `sh ${agent}`, iterations);
  const job = queueAdd(ctx.yoke, ctx.url, ctx.work, remote, name);
  const start = process.hrtime.bigint();
  await waitForJob(ctx.client, job, ctx.worker);
  const wallMs = Number(process.hrtime.bigint() - start) / 1e6;
  const records = await storeRecords(ctx.client, name);
  return { perIterationMs: runSpanMs(records) / iterations, wallMs, effects: effectTimes(records) };
}

interface FleetContext {
  work: string;
  yoke: string;
  url: string;
  client: pg.Client;
  worker: BenchWorker;
}

/** Interleaved rounds (local, then fleet) so that machine load hits both alike; the median ratio against the target. */
async function overheadBench(ctx: FleetContext, quick: boolean, report: Report): Promise<void> {
  const iterations = quick ? 3 : 20;
  const rounds = quick ? 1 : 5;
  const agent = join(ctx.work, 'fleet-agent.sh');
  writeAgent(agent, iterations);
  const lines: string[] = [];
  const ratios: number[] = [];
  const withoutPush: number[] = [];
  let last: { local: Side; fleet: Side } | null = null;
  for (let i = 0; i < rounds; i += 1) {
    const local = localRound(join(ctx.work, `fleet-local-${i}`), ctx.yoke, agent, iterations);
    const fleet = await fleetRound(ctx, join(ctx.work, `fleet-remote-${i}`), `bench-overhead-${i}`, agent, iterations);
    const ratio = fleet.perIterationMs / local.perIterationMs;
    ratios.push(ratio);
    last = { local, fleet };
    // the push to refs/yoke/runs/<run> runs inside the commit effect (the post-commit hook): its share is the commits' extra time
    const pushMs = ((fleet.effects.get('commit.create')?.total ?? 0) - (local.effects.get('commit.create')?.total ?? 0)) / iterations;
    withoutPush.push((fleet.perIterationMs - pushMs) / local.perIterationMs);
    lines.push(
      `round ${i + 1}: local ${local.perIterationMs.toFixed(1)} ms/iteration (${local.wallMs.toFixed(0)} ms spawn → exit), ` +
        `fleet ${fleet.perIterationMs.toFixed(1)} ms/iteration (${fleet.wallMs.toFixed(0)} ms queue add → job completed), ratio ${ratio.toFixed(2)}x`,
    );
  }
  const ratio = median(ratios);
  lines.push(`median ratio ${ratio.toFixed(2)}x (${median(withoutPush).toFixed(2)}x without the push after each commit, which is the commits' extra time); ${verdict(`fleet per-iteration ≤ ${FLEET_TARGET}x the local run's`, ratio <= FLEET_TARGET, quick, 'the push after each commit; see docs/performance.md')}`);
  if (last !== null) {
    const { local, fleet } = last;
    const mean = (time: { total: number; count: number } | undefined): string => (time === undefined ? '-' : (time.total / time.count).toFixed(1));
    const kinds = [...fleet.effects].sort((a, b) => b[1].total - a[1].total).map(([kind, time]) => `${kind} ${mean(local.effects.get(kind))} → ${mean(time)}`);
    lines.push(`last round, mean ms per effect, local → fleet (journal timestamps; the fleet's commit includes the post-commit push): ${kinds.join(', ')}`);
  }
  report(`fleet overhead: ${iterations} iterations, \`cmd\` agent, \`true\` guard, commit each, local file journal vs one worker on PostgreSQL (${rounds} round${rounds === 1 ? '' : 's'})`, lines);
}

/** Queue a one-iteration job at a time on the idle worker; time from `queue add` returning to the agent's first instruction. */
async function claimBench(ctx: FleetContext, quick: boolean, report: Report): Promise<void> {
  const jobs = quick ? 1 : 5;
  const agent = join(ctx.work, 'claim-agent.sh');
  writeAgent(agent, 1);
  const totals: number[] = [];
  const toRun: number[] = [];
  const toClaim: number[] = [];
  for (let i = 0; i < jobs; i += 1) {
    const name = `bench-claim-${i}`;
    const stamp = join(ctx.work, `${name}.stamp`);
    const remote = makeProject(join(ctx.work, name), ctx.yoke, `STAMP=${stamp} sh ${agent}`, 1);
    const job = queueAdd(ctx.yoke, ctx.url, ctx.work, remote, name);
    const added = Date.now();
    const deadline = added + 120_000;
    while (!existsSync(stamp) || readFileSync(stamp, 'utf8').trim() === '') {
      if (Date.now() > deadline) throw new Error(`the claim benchmark's agent did not start within 120 s (job ${job}); see ${ctx.worker.log}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    totals.push(Number(readFileSync(stamp, 'utf8').trim()) / 1e6 - added);
    await waitForJob(ctx.client, job, ctx.worker);
    const started = (await storeRecords(ctx.client, name)).find((record) => record.type === 'run.started');
    if (started !== undefined) toRun.push(Date.parse(started.ts) - added);
    const { rows } = await ctx.client.query<{ started_on: Date }>('SELECT started_on FROM pgboss.job WHERE id = $1::uuid', [job]);
    if (rows[0] !== undefined) toClaim.push(rows[0].started_on.getTime() - added);
  }
  report(`claim latency: \`yoke queue add\` returned → the agent's first instruction, one idle worker polling every 2 s (its default), ${jobs} job${jobs === 1 ? '' : 's'}`, [
    `each: ${totals.map((ms) => `${ms.toFixed(0)} ms`).join(', ')}`,
    `p50 ${median(totals).toFixed(0)} ms; p50 of the steps from queue add: claimed by the worker (pg-boss's started_on) ${median(toClaim).toFixed(0)} ms, ` +
      `run.started journaled ${median(toRun).toFixed(0)} ms (+ clone, checks, yoke run's start-up and lease)`,
  ]);
}

/** Both fleet benchmarks on one cluster and one worker, started here and stopped at the end (they must start: no silent skip). */
export async function fleetBench(work: string, yoke: string, quick: boolean, report: Report): Promise<void> {
  const cluster = await startPostgresCluster({ durable: true });
  let worker: BenchWorker | null = null;
  const client = new pg.Client({ connectionString: cluster.url() });
  try {
    const url = cluster.url();
    const init = spawnSync(process.execPath, [yoke, 'store', 'init'], { cwd: work, encoding: 'utf8', env: { ...localEnv(), YOKE_STORE: url } });
    if (init.status !== 0) throw new Error(`yoke store init failed for the fleet benchmark: ${init.stderr.trim()}`);
    await client.connect();
    worker = startWorker(yoke, url, join(work, 'fleet-worker'));
    await waitForWorker(client, worker);
    const ctx: FleetContext = { work, yoke, url, client, worker };
    await overheadBench(ctx, quick, report);
    await claimBench(ctx, quick, report);
  } finally {
    await worker?.stop();
    await client.end().catch(() => undefined);
    cluster.stop();
  }
}
