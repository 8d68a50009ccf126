// `yoke worker`: claims jobs from the queue, runs each as `yoke run` in a fresh checkout against the shared store, beats, hands back dead workers' jobs.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type PgBoss from 'pg-boss';
import { YokeError } from '../../errors/yoke-error.js';
import { closeStorePools, withClient } from '../journal/postgres/store-pool.js';
import { assertStoreReady } from '../journal/postgres/store-schema.js';
import { closeBoss, DEAD_LETTER_QUEUE, hideSecrets, JOB_QUEUE, openBoss, type JobData } from './fleet-queue.js';
import { CheckoutRefused, headIsRunCommit, prepareCheckout, pushRunRef, runRef } from './job-checkout.js';
import { completedEffects, journalLength, readRunPosition } from './journal-position.js';
import { readModeTag } from '../stash/mode-tag.js';
import { missingBackupRefusal, openLanesRefusal, uncommittedWorkRefusal } from './resume-refusal.js';
import { restoreBlobs, uploadBlobs } from './ship-blobs.js';
import { beat, claimJob, reapDeadWorkers, registerWorker, releaseJob, stopWorker, type WorkerIdentity } from './worker-registry.js';

/** How `yoke worker` is set up. */
export interface WorkerOptions {
  url: string;
  concurrency: number;
  workdir: string;
  /** the command that runs `yoke` (this very yoke: node and its bundle) */
  yoke: [string, ...string[]];
  /** one line for the operator (stderr) */
  log: (line: string) => void;
  env?: NodeJS.ProcessEnv;
}

/** How one job ended for this worker. */
type Outcome =
  | { kind: 'complete'; output: Record<string, unknown> }
  /** `refusal`: a failure the next attempt meets again unless something changed (see settleRetry) */
  | { kind: 'retry'; reason: string; refusal?: boolean }
  | { kind: 'dead'; reason: string };

/** What a failed attempt leaves in pg-boss's output for the next one: its reason, and for a refusal the journal's progress then. */
interface FailureOutput {
  reason: string;
  refusal?: boolean;
  /** effects completed in the workspace's journal when the refusal happened */
  progress?: number;
}

/** The worker's heartbeat TTL: YOKE_WORKER_TTL_MS, default 30 s (it beats every third of it). */
export function workerTtlMs(env: NodeJS.ProcessEnv = process.env): number {
  const value = Number(env.YOKE_WORKER_TTL_MS);
  return Number.isSafeInteger(value) && value >= 500 ? value : 30_000;
}

/** One worker process: start() resolves when it stopped (SIGTERM via stop(), or declared dead by the others). */
export class FleetWorker {
  readonly identity: WorkerIdentity;
  private boss: PgBoss | null = null;
  private stopping = false;
  private readonly running = new Map<string, Promise<void>>();
  private readonly children = new Set<ChildProcess>();
  /** the checkouts of the jobs running now (workspace → dir), whose blobs each tick ships, and what was shipped */
  private readonly checkouts = new Map<string, { dir: string; shipped: Set<string> }>();
  private readonly ttlMs: number;
  private readonly pollMs: number;
  private wake: (() => void) | null = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly options: WorkerOptions) {
    const env = options.env ?? process.env;
    this.identity = { id: `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`, host: hostname(), pid: process.pid, concurrency: options.concurrency };
    this.ttlMs = workerTtlMs(env);
    const poll = Number(env.YOKE_WORKER_POLL_MS);
    this.pollMs = Number.isSafeInteger(poll) && poll >= 100 ? poll : 2_000;
  }

  /** Register, then claim and run jobs until stopped. */
  async start(): Promise<void> {
    const { url } = this.options;
    await assertStoreReady(url);
    this.boss = await openBoss(url, { supervise: true, onError: (message) => this.options.log(`queue: ${message}`) });
    await withClient(url, (client) => registerWorker(client, this.identity, this.ttlMs));
    this.options.log(`worker ${this.identity.id} started (concurrency ${this.options.concurrency}, work in ${this.options.workdir})`);
    this.timer = setInterval(() => void this.tick(), Math.max(100, Math.floor(this.ttlMs / 3)));
    await this.tick();
    try {
      while (!this.stopping) {
        if (this.running.size >= this.options.concurrency) {
          await this.sleep(this.pollMs);
          continue;
        }
        const [job] = await this.boss.fetch<JobData>(JOB_QUEUE, { batchSize: 1, includeMetadata: true });
        if (job === undefined) {
          await this.sleep(this.pollMs);
          continue;
        }
        if (this.stopping) {
          await this.boss.fail(JOB_QUEUE, job.id, { reason: 'the worker was stopping when it claimed the job' });
          break;
        }
        const handling = this.handle(job).finally(() => {
          this.running.delete(job.id);
          this.wake?.();
        });
        this.running.set(job.id, handling);
      }
      await Promise.all(this.running.values());
    } finally {
      if (this.timer) clearInterval(this.timer);
      await withClient(url, (client) => stopWorker(client, this.identity.id)).catch(() => undefined);
      await closeBoss(this.boss);
      await closeStorePools();
      this.options.log(`worker ${this.identity.id} stopped`);
    }
  }

  /** Stop cleanly: claim nothing more, stop each run (SIGTERM: it journals the interruption, resumable) and hand its job back. */
  stop(signal: NodeJS.Signals = 'SIGTERM'): void {
    if (this.stopping) return;
    this.stopping = true;
    for (const child of this.children) child.kill(signal);
    this.wake?.();
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timeout);
        this.wake = null;
        resolve();
      };
      const timeout = setTimeout(done, ms);
      this.wake = done;
    });
  }

  /** Beat, and hand back the jobs of workers that stopped beating. */
  private async tick(): Promise<void> {
    const { url } = this.options;
    try {
      const alive = await withClient(url, (client) => beat(client, this.identity.id, this.ttlMs));
      if (!alive && !this.stopping) {
        this.options.log(`worker ${this.identity.id} was declared dead by another worker (no heartbeat within ${this.ttlMs} ms); its jobs were handed back, stopping`);
        this.stop();
        return;
      }
      await this.shipBlobs();
      const lost = await withClient(url, (client) => reapDeadWorkers(client, this.identity.id));
      for (const claim of lost) {
        this.options.log(`worker ${claim.worker} (pid ${claim.pid} on ${claim.host}) stopped beating: job ${claim.job} goes back to the queue`);
        await this.boss?.fail(JOB_QUEUE, claim.job, { reason: `worker ${claim.worker} (pid ${claim.pid} on ${claim.host}) stopped heartbeating` });
      }
    } catch (error) {
      this.options.log(`heartbeat failed: ${hideSecrets(url, error)}`);
    }
  }

  /** Upload the blobs the running jobs' checkouts wrote since the last tick (a run resumed elsewhere restores its spec files from them). */
  private async shipBlobs(): Promise<void> {
    for (const [workspace, checkout] of this.checkouts) {
      await withClient(this.options.url, (client) => uploadBlobs(client, workspace, checkout.dir, checkout.shipped));
    }
  }

  private async handle(job: PgBoss.JobWithMetadata<JobData>): Promise<void> {
    const { url } = this.options;
    const boss = this.boss;
    if (boss === null) return;
    const data = job.data;
    await withClient(url, (client) => claimJob(client, job.id, this.identity.id, data.workspace));
    this.options.log(`job ${job.id}: workspace ${data.workspace}, attempt ${job.retryCount + 1}`);
    let outcome: Outcome;
    try {
      outcome = await this.runJob(job);
    } catch (error) {
      // a refusal yoke states itself (a journal whose chain is broken) stays as it is; a failure it wraps (the store unreachable) or a raw one (a connection lost) may not
      const refusal = error instanceof YokeError && error.cause === undefined;
      outcome = { kind: 'retry', reason: hideSecrets(url, error), refusal };
    }
    const ours = await withClient(url, (client) => releaseJob(client, job.id, this.identity.id)).catch(() => false);
    if (!ours) {
      this.options.log(`job ${job.id}: handed back to the queue meanwhile (this worker was declared dead); leaving it`);
      return;
    }
    if (outcome.kind === 'complete') {
      await boss.complete(JOB_QUEUE, job.id, outcome.output);
      this.options.log(`job ${job.id}: done (${JSON.stringify(outcome.output)})`);
    } else if (outcome.kind === 'dead') {
      await this.deadLetter(job.id, outcome.reason);
    } else {
      const output = await this.settleRetry(job, outcome);
      if (output === null) {
        await this.deadLetter(job.id, `${outcome.reason} (the same refusal as the attempt before, with no progress in between: it would not change)`);
        return;
      }
      await boss.fail(JOB_QUEUE, job.id, output);
      this.options.log(`job ${job.id}: back to the queue: ${outcome.reason}`);
    }
  }

  /** Fail the job for good: no attempt left, so pg-boss copies it, with the reason, to the dead-letter queue. */
  private async deadLetter(jobId: string, reason: string): Promise<void> {
    await withClient(this.options.url, (client) => client.query('UPDATE pgboss.job SET retry_limit = retry_count WHERE name = $1 AND id = $2::uuid', [JOB_QUEUE, jobId]));
    await this.boss?.fail(JOB_QUEUE, jobId, { reason });
    this.options.log(`job ${jobId}: to ${DEAD_LETTER_QUEUE}: ${reason}`);
  }

  /**
   * What to hand back for a retry, or null when retrying is pointless: a refusal (yoke run exiting
   * 1 or 3, a journal the worker cannot read) identical to the previous attempt's, with no effect
   * completed in the workspace's journal since. A missing blob, a refused workspace or a damaged
   * journal stays as it is; a transient failure (a lease still held, a stop, the worker's own lost
   * connection) is not a refusal, and one inside `yoke run` (the store gone for a while) either
   * changes its message, makes progress, or leaves the worker unable to count the progress, which
   * counts as a change.
   */
  private async settleRetry(job: PgBoss.JobWithMetadata<JobData>, outcome: Extract<Outcome, { kind: 'retry' }>): Promise<FailureOutput | null> {
    if (outcome.refusal !== true) return { reason: outcome.reason };
    const progress = await withClient(this.options.url, (client) => completedEffects(client, job.data.workspace)).catch(() => null);
    if (progress === null) return { reason: outcome.reason };
    const previous = (job.output ?? null) as Partial<FailureOutput> | null;
    if (previous?.refusal === true && previous.reason === outcome.reason && previous.progress === progress) return null;
    return { reason: outcome.reason, refusal: true, progress };
  }

  private async runJob(job: PgBoss.JobWithMetadata<JobData>): Promise<Outcome> {
    const { url, workdir } = this.options;
    const data = job.data;
    const afterSeq = await withClient(url, async (client) => Number((await client.query<{ after_seq: string }>('SELECT after_seq FROM yoke_job WHERE job = $1', [job.id])).rows[0]?.after_seq ?? 0));
    const before = await readRunPosition(url, data.workspace, afterSeq);
    if (before.finished !== null && before.jobRun !== null) {
      return { kind: 'complete', output: { run: before.jobRun, ...before.finished, note: 'finished before this attempt' } };
    }
    // the lease first: a `yoke run` left behind by a worker killed alone may still be working, in this very folder when that worker ran on this machine
    if (!(await this.leaseFree(data.workspace))) return { kind: 'retry', reason: `workspace ${data.workspace} is still leased by another yoke` };
    if (this.stopping) return { kind: 'retry', reason: 'the worker stopped before the run began' };
    let position = before;
    if ((await withClient(url, (client) => journalLength(client, data.workspace))) !== before.length) {
      position = await readRunPosition(url, data.workspace, afterSeq);
      if (position.finished !== null && position.jobRun !== null) return { kind: 'complete', output: { run: position.jobRun, ...position.finished, note: 'finished before this attempt' } };
    }
    const unresumable = uncommittedWorkRefusal(position, data.workspace) ?? openLanesRefusal(position, data.workspace);
    if (unresumable !== null) return { kind: 'dead', reason: unresumable };
    const dir = join(workdir, data.workspace);
    let checkout;
    try {
      checkout = await prepareCheckout(dir, data, position, join(workdir, 'kept', data.workspace));
    } catch (error) {
      if (error instanceof CheckoutRefused) return error.permanent ? { kind: 'dead', reason: error.message } : { kind: 'retry', reason: error.message };
      throw error;
    }
    const mode = data.mode === null ? null : readModeTag(join(dir, '.loop', 'yoke.conf'));
    if (mode !== null && mode !== data.mode) {
      return { kind: 'dead', reason: `the job was queued for ${data.mode} mode, but .loop/yoke.conf of ${data.ref ?? 'the default branch'} is ${mode === 'unknown' ? 'in no mode yoke knows' : `in ${mode} mode`}; queue it again with the mode it is in, or change the workspace's mode and push` };
    }
    this.options.log(`job ${job.id}: ${data.workspace} checked out at ${checkout.head.slice(0, 12)} (tree ${checkout.tree.slice(0, 12)}${checkout.fromRef ? `, from ${checkout.fromRef}` : ''}) on ${checkout.branch}`);
    const missing = await withClient(url, (client) => restoreBlobs(client, data.workspace, dir, position));
    if (missing.length > 0) return { kind: 'dead', reason: missingBackupRefusal(position, missing, data.workspace) };
    if ((await withClient(url, (client) => journalLength(client, data.workspace))) !== position.length) return { kind: 'retry', reason: 'the journal moved while this worker prepared the checkout' };
    const shipped = new Set<string>();
    this.checkouts.set(data.workspace, { dir, shipped });
    let exit;
    try {
      exit = await this.runYoke(job.id, dir, data.workspace);
    } finally {
      this.checkouts.delete(data.workspace);
    }
    await withClient(url, (client) => uploadBlobs(client, data.workspace, dir, shipped));
    const after = await readRunPosition(url, data.workspace, afterSeq);
    const run = after.jobRun ?? after.open;
    if (run !== null && (await headIsRunCommit(dir, run))) {
      const failed = await pushRunRef(dir, run);
      if (failed !== null) return { kind: 'retry', reason: `the run's commits could not be pushed to ${runRef(run)}: ${failed}` };
    }
    if (after.finished !== null && after.jobRun !== null) return { kind: 'complete', output: { run: after.jobRun, ...after.finished } };
    if (exit.code === 2) return { kind: 'dead', reason: `yoke run refused the workspace (exit 2): ${exit.lastLine}` };
    const stopped = exit.signal ? `was stopped by ${exit.signal}` : `exited ${exit.code}`;
    return { kind: 'retry', reason: `yoke run ${stopped} before the run finished${exit.lastLine ? `: ${exit.lastLine}` : ''}`, refusal: exit.signal === null && (exit.code === 1 || exit.code === 3) };
  }

  /** Wait (up to three TTLs of the lease, plus a margin) until nobody holds the workspace's lease. */
  private async leaseFree(workspace: string): Promise<boolean> {
    const leaseTtl = Number(this.options.env?.YOKE_LEASE_TTL_MS ?? process.env.YOKE_LEASE_TTL_MS) || 30_000;
    const deadline = Date.now() + 3 * leaseTtl + 30_000;
    while (!this.stopping) {
      const held = await withClient(this.options.url, async (client) => (await client.query('SELECT 1 FROM yoke_lease WHERE workspace = $1 AND expires_at > now()', [workspace])).rowCount ?? 0);
      if (held === 0) return true;
      if (Date.now() > deadline) return false;
      await this.sleep(500);
    }
    return false;
  }

  /** `yoke run --quiet` in the checkout, with the worker's store; its output goes to <workdir>/logs/<job>.log. */
  private async runYoke(jobId: string, dir: string, workspace: string): Promise<{ code: number | null; signal: NodeJS.Signals | null; lastLine: string }> {
    const logs = join(this.options.workdir, 'logs');
    await mkdir(logs, { recursive: true });
    const log = createWriteStream(join(logs, `${jobId}.log`), { flags: 'a' });
    const [command, ...args] = this.options.yoke;
    // no git prompt: a push (the post-commit hook) without credentials fails in the job log instead of waiting on a terminal
    const env = { ...(this.options.env ?? process.env), YOKE_STORE: this.options.url, YOKE_WORKSPACE: workspace, GIT_TERMINAL_PROMPT: '0' };
    const child = spawn(command, [...args, 'run', '--quiet'], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
    this.children.add(child);
    let tail = '';
    const keep = (chunk: Buffer) => {
      log.write(chunk);
      tail = (tail + chunk.toString('utf8')).slice(-2_000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => {
      child.on('error', (error) => {
        tail += `\n${error.message}`;
        resolve([null, null]);
      });
      child.on('close', (exitCode, exitSignal) => resolve([exitCode, exitSignal]));
    });
    this.children.delete(child);
    await new Promise<void>((resolve) => log.end(resolve));
    const lastLine = tail.trim().split('\n').at(-1)?.trim() ?? '';
    return { code, signal, lastLine: hideSecrets(this.options.url, lastLine) };
  }
}
