// A cgroup (v2) per agent call, when the system lets yoke make one: every process the agent starts
// stays in it, even one that left the process group (`setsid`, a double fork), so all of them can
// be stopped when the call ends (issue 20, item 14).
//
// yoke makes the cgroup as a child of its own (read from /proc/self/cgroup, under the cgroup2
// mount found in /proc/self/mountinfo). That works where yoke may write there: as root in most
// containers and VMs, or inside a delegated systemd scope. Anywhere else (a read-only
// /sys/fs/cgroup, a login session owned by root, macOS) it returns null and the caller falls back.
import { createHash, randomBytes } from 'node:crypto';
import { accessSync, constants, existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isSameProcess, processStartTime } from './process-identity.js';

const POLL_MS = 20;
/** After cgroup.kill, how long to wait for the kernel to empty the cgroup before leaving it. */
const AFTER_KILL_WAIT_MS = 2_000;

/** One agent call's cgroup. */
export interface CgroupScope {
  /** the cgroup's `cgroup.procs`: the process that writes its pid there joins the cgroup */
  procsFile: string;
  /** SIGTERM every process still in it, SIGKILL (cgroup.kill) what is left after `graceMs`, then remove it */
  stop(graceMs: number): Promise<void>;
}

let parentDir: string | null | undefined;
/** Projects whose orphaned cgroups this process already swept. */
const swept = new Set<string>();

/** The directory of yoke's own cgroup in the cgroup2 hierarchy, when it exists and yoke may make children in it; else null (asked once). */
function ownCgroupDir(): string | null {
  if (parentDir !== undefined) return parentDir;
  parentDir = null;
  try {
    const own = /^0::(\/.*)$/m.exec(readFileSync('/proc/self/cgroup', 'utf8'))?.[1];
    if (own === undefined) return null;
    for (const line of readFileSync('/proc/self/mountinfo', 'utf8').split('\n')) {
      const [left, right] = line.split(' - ');
      if (right?.split(' ')[0] !== 'cgroup2' || left === undefined) continue;
      const fields = left.split(' ');
      const root = fields[3] ?? '';
      const mount = (fields[4] ?? '').replace(/\\040/g, ' ');
      if (own !== root && !own.startsWith(root === '/' ? '/' : `${root}/`)) continue;
      const dir = join(mount, root === '/' ? own : own.slice(root.length));
      accessSync(join(dir, 'cgroup.procs'), constants.W_OK);
      parentDir = dir;
      break;
    }
  } catch {
    parentDir = null;
  }
  return parentDir;
}

/** The pids in a cgroup (empty when it is gone). */
function members(dir: string): number[] {
  try {
    return readFileSync(join(dir, 'cgroup.procs'), 'utf8').split('\n').filter((line) => line !== '').map(Number);
  } catch {
    return [];
  }
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // gone already
  }
}

async function emptied(dir: string, timeoutMs: number): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    if (members(dir).length === 0) return true;
    if (performance.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** Stop everything in the cgroup at `dir` and remove it (best effort: a cgroup that will not empty is left). */
async function stopCgroup(dir: string, graceMs: number): Promise<void> {
  const left = members(dir);
  if (left.length > 0) {
    for (const pid of left) signal(pid, 'SIGTERM');
    if (!(await emptied(dir, graceMs))) {
      const kill = join(dir, 'cgroup.kill');
      if (existsSync(kill)) writeFileSync(kill, '1');
      else for (const pid of members(dir)) signal(pid, 'SIGKILL');
      await emptied(dir, AFTER_KILL_WAIT_MS);
    }
  }
  try {
    rmdirSync(dir);
  } catch {
    // still populated (a zombie nobody reaps) or already gone: leave it
  }
}

/** A cgroup name: the project, and the yoke that made it (pid + start time), so a later yoke can tell an orphan. */
function scopeName(project: string): { prefix: string; name: string } {
  const prefix = `yoke-${createHash('sha256').update(project).digest('hex').slice(0, 12)}-`;
  return { prefix, name: `${prefix}${process.pid}-${processStartTime(process.pid) ?? '0'}-${randomBytes(4).toString('hex')}` };
}

const SCOPE_NAME = /^(yoke-[0-9a-f]{12}-)(\d+)-(\d+)-[0-9a-f]+$/;

/**
 * Cgroups left behind by a yoke that died (kill -9, a crash): their yoke (pid + start time in the
 * name) is gone. This project's are stopped (whatever is still in them escaped an agent call nobody
 * supervises any more); any project's empty ones are removed. Once per project per yoke process,
 * before its first agent call.
 */
async function sweepOrphans(parent: string, prefix: string): Promise<void> {
  if (swept.has(prefix)) return;
  swept.add(prefix);
  for (const entry of readdirSync(parent)) {
    const owner = SCOPE_NAME.exec(entry);
    if (owner === null || isSameProcess(Number(owner[2]), owner[3] ?? null)) continue;
    const dir = join(parent, entry);
    if (owner[1] === prefix || members(dir).length === 0) await stopCgroup(dir, 0);
  }
}

/** A fresh cgroup for one agent call of the project at `project`, or null when yoke cannot make one here. */
export async function openCgroupScope(project: string): Promise<CgroupScope | null> {
  const parent = ownCgroupDir();
  if (parent === null) return null;
  const { prefix, name } = scopeName(project);
  const dir = join(parent, name);
  try {
    await sweepOrphans(parent, prefix);
    mkdirSync(dir);
    accessSync(join(dir, 'cgroup.procs'), constants.W_OK);
  } catch {
    parentDir = null; // not here after all: stop trying for this process
    try {
      rmdirSync(dir);
    } catch {
      // never made
    }
    return null;
  }
  return { procsFile: join(dir, 'cgroup.procs'), stop: (graceMs) => stopCgroup(dir, graceMs) };
}
