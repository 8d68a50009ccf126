// The fleet benchmarks' fixtures: scripted git projects (a local checkout and its bare remote), a real `yoke worker`, and the store's view of a job.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type pg from 'pg';

/** The git identity both sides commit with (a worker's clone has no repository config). */
export const GIT_IDENTITY = { GIT_AUTHOR_NAME: 'bench', GIT_AUTHOR_EMAIL: 'bench@example.invalid', GIT_COMMITTER_NAME: 'bench', GIT_COMMITTER_EMAIL: 'bench@example.invalid' };

/** The environment of a local `yoke run`: the file journal, whatever the caller's shell says. */
export function localEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...GIT_IDENTITY, NO_COLOR: '1' };
  delete env.YOKE_STORE;
  delete env.YOKE_WORKSPACE;
  return env;
}

/**
 * A committed loop project in `dir`: `yoke init loop`, then `yoke.conf` with `agent cmd <agent>`,
 * a `true` guard, `commit each`, at most `iterations` iterations. Returns its bare clone (the remote a
 * job names), made next to it.
 */
export function makeProject(dir: string, yoke: string, agent: string, iterations: number): string {
  mkdirSync(dir, { recursive: true });
  const git = (...args: string[]): void => void execFileSync('git', args, { cwd: dir, stdio: 'ignore', env: localEnv() });
  git('init', '-q');
  writeFileSync(join(dir, 'README'), 'bench\n');
  execFileSync(process.execPath, [yoke, 'init', 'loop'], { cwd: dir, stdio: 'ignore', env: localEnv() });
  writeFileSync(join(dir, '.loop', 'yoke.conf'), `mode loop\nagent cmd ${agent}\nmax-iterations ${iterations}\nguard ok true\ncommit each\n`);
  git('add', '-A');
  git('commit', '-qm', 'init');
  const remote = `${dir}.git`;
  execFileSync('git', ['clone', '--quiet', '--bare', dir, remote], { stdio: 'ignore' });
  return remote;
}

/** The agent script: appends the iteration to work.txt and says DONE at iteration `iterations`; with `$STAMP` set, first writes the epoch in ns there. */
export function writeAgent(path: string, iterations: number): void {
  writeFileSync(
    path,
    '#!/bin/sh\n[ -z "$STAMP" ] || [ -f "$STAMP" ] || date +%s%N > "$STAMP"\ncat >/dev/null\necho "$YOKE_ITERATION" >> work.txt\n' +
      `if [ "$YOKE_ITERATION" -ge ${iterations} ]; then printf 'STATUS: DONE\\n' > .loop/notes.md; ` +
      "else printf 'STATUS: IN_PROGRESS\\n' > .loop/notes.md; fi\n",
  );
}

/** A running `yoke worker` (its own process group), its stderr in `log`. */
export interface BenchWorker {
  child: ChildProcess;
  log: string;
  stop(): Promise<void>;
}

/** Start one `yoke worker` on the store at `url`, with the default poll interval and TTLs (what a user gets). */
export function startWorker(yoke: string, url: string, workdir: string): BenchWorker {
  mkdirSync(workdir, { recursive: true });
  const log = join(workdir, 'worker.log');
  const out = openSync(log, 'a');
  const child = spawn(process.execPath, [yoke, 'worker', '--workdir', workdir], {
    cwd: workdir,
    env: { ...localEnv(), YOKE_STORE: url },
    detached: true,
    stdio: ['ignore', out, out],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timeout = new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), 30_000).unref());
    if ((await Promise.race([exited, timeout])) === 'late' && child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
  };
  return { child, log, stop };
}

/** Resolve once the worker has registered (so no round pays for its start-up). */
export async function waitForWorker(client: pg.Client, worker: BenchWorker, limitMs = 60_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while ((await client.query("SELECT 1 FROM yoke_worker WHERE pid = $1 AND state = 'running'", [worker.child.pid ?? 0])).rowCount === 0) {
    if (Date.now() > deadline || worker.child.exitCode !== null) throw new Error(`the benchmark's yoke worker did not start: ${readFileSync(worker.log, 'utf8').trim()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** `yoke queue add <remote> --name <name> --json`; resolves to the job id once the command has returned. */
export function queueAdd(yoke: string, url: string, cwd: string, remote: string, name: string): string {
  const out = execFileSync(process.execPath, [yoke, 'queue', 'add', remote, '--name', name, '--json'], { cwd, encoding: 'utf8', env: { ...localEnv(), YOKE_STORE: url } });
  const added = JSON.parse(out) as { queued: boolean; job?: string };
  if (!added.queued || added.job === undefined) throw new Error(`yoke queue add queued nothing for ${name}: ${out.trim()}`);
  return added.job;
}

/** Poll pg-boss until the job is completed; throws with the worker's log tail if it failed or `limitMs` passed. */
export async function waitForJob(client: pg.Client, job: string, worker: BenchWorker, limitMs = 600_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const { rows } = await client.query<{ state: string; output: unknown }>("SELECT state::text AS state, output FROM pgboss.job WHERE name = 'yoke-jobs' AND id = $1::uuid", [job]);
    const state = rows[0]?.state;
    if (state === 'completed') return;
    if (state === 'failed' || Date.now() > deadline || worker.child.exitCode !== null) {
      const tail = readFileSync(worker.log, 'utf8').trim().split('\n').slice(-8).join('\n');
      throw new Error(`the benchmark's job ${job} did not complete (state ${state ?? 'none'}, ${JSON.stringify(rows[0]?.output ?? null)}); worker log:\n${tail}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Milliseconds of the run inside a journal: its run.started to its run.finished (journal timestamps). */
export function runSpanMs(records: TimedRecord[]): number {
  const started = records.find((record) => record.type === 'run.started');
  const finished = records.findLast((record) => record.type === 'run.finished');
  if (started === undefined || finished === undefined) throw new Error('the benchmark\'s journal has no finished run');
  return Date.parse(finished.ts) - Date.parse(started.ts);
}

/** What the benchmarks read of a journal record: its type and time, and an effect's key and kind. */
export interface TimedRecord {
  type: string;
  ts: string;
  key?: string | null;
  kind?: string | null;
}

/** The records of a workspace's journal in the store. */
export async function storeRecords(client: pg.Client, workspace: string): Promise<TimedRecord[]> {
  const { rows } = await client.query<TimedRecord>(
    "SELECT record->>'type' AS type, record->>'ts' AS ts, record->'payload'->>'key' AS key, record->'payload'->>'kind' AS kind FROM yoke_journal WHERE workspace = $1 ORDER BY seq",
    [workspace],
  );
  return rows;
}

/** The records of a file journal. */
export function fileRecords(journal: string): TimedRecord[] {
  return readFileSync(journal, 'utf8').split('\n').filter((line) => line !== '').map((line) => {
    const record = JSON.parse(line) as { type: string; ts: string; payload: { key?: string; kind?: string } };
    return { type: record.type, ts: record.ts, key: record.payload.key ?? null, kind: record.payload.kind ?? null };
  });
}

/** Milliseconds per effect kind (total and count): effect.started → effect.completed timestamps (the write-ahead append of the start included). */
export function effectTimes(records: TimedRecord[]): Map<string, { total: number; count: number }> {
  const started = new Map<string, number>();
  const sums = new Map<string, { total: number; count: number }>();
  for (const record of records) {
    if (record.key == null || record.kind == null) continue;
    if (record.type === 'effect.started') started.set(record.key, Date.parse(record.ts));
    const begin = started.get(record.key);
    if (record.type === 'effect.completed' && begin !== undefined) {
      const sum = sums.get(record.kind) ?? { total: 0, count: 0 };
      sum.total += Date.parse(record.ts) - begin;
      sum.count += 1;
      sums.set(record.kind, sum);
    }
  }
  return sums;
}
