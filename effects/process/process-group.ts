// Running one `sh -c` command as the leader of its own process group: live output, idle and hard
// timeouts, abort, and no member of the group left running afterwards.
//
// Built on node:child_process rather than execa: we need the leader's `exit` separately from its
// pipes closing (a grandchild may hold stdout open forever), raw chunks as they arrive, and every
// kill aimed at the whole group. execa's promise settles only after stdio ends and its
// timeout/cancelSignal kill only the direct child, so almost nothing of it would be used.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import type { Readable } from 'node:stream';
import type { EffectKind } from '../../machines/effects.js';
import { EffectAborted } from '../handler.js';
import { openContainment, type Containment, type ContainmentMode } from './containment.js';
import { setLongTimeout, type LongTimeout } from './long-timeout.js';
import { processStartTime } from './process-identity.js';
import { signalGroup, terminateGroup } from './terminate-group.js';

/** Grace between SIGTERM and SIGKILL on abort (SIGINT/SIGTERM of yoke). */
const ABORT_GRACE_MS = 500;
/** Grace between SIGTERM and SIGKILL on a timeout, and for members left behind by an exited leader. */
const KILL_GRACE_MS = 1_000;
/** After the group is gone, how long a pipe held by an escaped process may stay open before we stop reading. */
const PIPE_DRAIN_MS = 500;

/** What to run and how to watch it. */
export interface ProcessGroupOptions {
  command: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** written to stdin, which is then closed; stdin is closed even when absent */
  stdin?: string;
  onStdout(chunk: Buffer): void;
  onStderr(chunk: Buffer): void;
  /** kill the group after this long without any output; 0 = off */
  idleTimeoutMs: number;
  /** kill the group after this long in total; 0 = off */
  timeoutMs: number;
  /** on abort: kill the group at once, wait for it to die, reject with EffectAborted */
  signal: AbortSignal;
  /** the effect this process serves, named in EffectAborted */
  effect: EffectKind;
  /** called synchronously right after a successful spawn, before any waiting */
  onSpawn?(pid: number, startTime: string | null): void;
  /**
   * Also stop, when the call ends, processes that left the group (`setsid`): agents get `auto` (a
   * cgroup where yoke may make one, else a watch over the leader's descendants). Absent: the group only.
   */
  contain?: ContainmentMode;
}

/** How the process ended. */
export interface ProcessGroupResult {
  outcome: 'exited' | 'timed-out' | 'idle-timeout' | 'spawn-failed';
  exitCode: number | null;
  signal: string | null;
  durationMs: number;
  /** why the process could not be started (outcome 'spawn-failed'), else null */
  error: string | null;
}

/** Run `sh -c command` in its own process group and resolve when the leader has exited and its group is gone. */
export async function runInProcessGroup(opts: ProcessGroupOptions): Promise<ProcessGroupResult> {
  if (opts.signal.aborted) throw new EffectAborted(opts.effect);
  const started = performance.now();
  const elapsed = (): number => Math.round(performance.now() - started);

  const containment: Containment | null = opts.contain === undefined ? null : await openContainment(opts.contain, opts.cwd);
  let child: ChildProcessWithoutNullStreams;
  try {
    child = spawn('sh', containment?.shArgs(opts.command) ?? ['-c', opts.command], { cwd: opts.cwd, env: opts.env, detached: true, stdio: 'pipe' });
  } catch (error) {
    await containment?.stop(0);
    return { outcome: 'spawn-failed', exitCode: null, signal: null, durationMs: elapsed(), error: String(error) };
  }
  const failure = new Promise<Error>((resolve) => child.on('error', resolve));
  const pid = child.pid;
  if (pid === undefined) {
    const error = await failure;
    await containment?.stop(0);
    return { outcome: 'spawn-failed', exitCode: null, signal: null, durationMs: elapsed(), error: `${error.message} (cwd ${opts.cwd})` };
  }
  containment?.started(pid);
  try {
    opts.onSpawn?.(pid, processStartTime(pid));
  } catch (error) {
    // Its identity could not be recorded: do not leave an untracked process group running.
    await terminateGroup(pid, 0).catch(() => undefined);
    await containment?.stop(0);
    throw error;
  }
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const { stdin, stdout, stderr } = child;
  stdin.on('error', () => undefined); // EPIPE when the command exits without reading its input
  stdin.end(opts.stdin ?? '');

  let reason: 'timed-out' | 'idle-timeout' | null = null;
  let aborted = false;
  // Once the leader has exited its pid may be reused: no timer may signal the group after that.
  let leaderGone = false;
  const kill: { inFlight: Promise<void> | null; start(graceMs: number): void } = {
    inFlight: null,
    start(graceMs) {
      if (leaderGone) return;
      containment?.beforeKill();
      this.inFlight ??= terminateGroup(pid, graceMs).catch(() => undefined);
    },
  };
  const timeout = (why: 'timed-out' | 'idle-timeout'): void => {
    if (leaderGone) return;
    reason ??= why;
    kill.start(KILL_GRACE_MS);
  };
  let idleTimer: LongTimeout | undefined;
  const armIdle = (): void => {
    if (opts.idleTimeoutMs <= 0 || kill.inFlight || leaderGone) return;
    idleTimer?.clear();
    idleTimer = setLongTimeout(() => timeout('idle-timeout'), opts.idleTimeoutMs);
  };
  const hardTimer = opts.timeoutMs > 0 ? setLongTimeout(() => timeout('timed-out'), opts.timeoutMs) : undefined;
  const onAbort = (): void => {
    aborted = true;
    kill.start(ABORT_GRACE_MS);
  };
  opts.signal.addEventListener('abort', onAbort, { once: true });
  // An abort fired while the spawn was being recorded (before the listener existed) still counts.
  if (opts.signal.aborted) onAbort();
  armIdle();
  stdout.on('data', (chunk: Buffer) => {
    armIdle();
    opts.onStdout(chunk);
  });
  stderr.on('data', (chunk: Buffer) => {
    armIdle();
    opts.onStderr(chunk);
  });
  const pipesClosed = Promise.all([closed(stdout), closed(stderr)]);

  const exit = await exited;
  leaderGone = true;
  idleTimer?.clear();
  hardTimer?.clear();
  opts.signal.removeEventListener('abort', onAbort);
  await kill.inFlight;
  // The leader is gone (and reaped, so its pid stays reserved only while its group has members):
  // stop whatever it left running in its group. Usually nothing is left, which one kill(0) tells
  // without walking /proc.
  if (groupMayHaveMembers(pid)) await terminateGroup(pid, KILL_GRACE_MS).catch(() => undefined);
  // Then what left the group (setsid): everything still in the call's cgroup, or the descendants seen.
  await containment?.stop(aborted ? ABORT_GRACE_MS : KILL_GRACE_MS).catch(() => undefined);
  await settleWithin(pipesClosed, PIPE_DRAIN_MS);
  stdout.destroy();
  stderr.destroy();

  if (aborted) throw new EffectAborted(opts.effect);
  return { outcome: reason ?? 'exited', exitCode: exit.code, signal: exit.signal, durationMs: elapsed(), error: null };
}

/** False only when no process at all (not even a zombie) is left in group `pgid`. */
function groupMayHaveMembers(pgid: number): boolean {
  try {
    return signalGroup(pgid, 0);
  } catch {
    return true; // e.g. EPERM: someone is there; let terminateGroup look closer
  }
}

function closed(stream: Readable): Promise<void> {
  return new Promise((resolve) => {
    if (stream.closed) resolve();
    else stream.once('close', () => resolve());
  });
}

async function settleWithin(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([promise, new Promise((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}
