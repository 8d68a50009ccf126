// Where no cgroup can be made: remember the agent's descendants (found through their parent pids in
// /proc) while the call runs, so the ones that left its process group can be stopped at its end.
//
// Best effort, and sound: a process is stopped only while it is still the one recorded (pid and
// kernel start time), so a reused pid is never hit. Not complete: a process that leaves the group
// and loses its parent between two looks (a double fork within a second) is never seen.
import { readdirSync } from 'node:fs';
import { procStatFields } from './proc-stat.js';
import { isSameProcess } from './process-identity.js';

/** When to look, after the spawn: soon (a quick `setsid … &` then exit), then every second. */
const FIRST_LOOKS_MS = [50, 250];
const LOOK_EVERY_MS = 1_000;
const POLL_MS = 20;

interface ProcessRow {
  pid: number;
  ppid: number;
  pgid: number;
  startTime: string;
}

/** Every live process with its parent, group and start time (empty without /proc). */
function processTable(): ProcessRow[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  const rows: ProcessRow[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const fields = procStatFields(Number(entry));
    if (fields === null || fields[0] === 'Z' || fields[0] === 'X') continue;
    rows.push({ pid: Number(entry), ppid: Number(fields[1]), pgid: Number(fields[2]), startTime: fields[19] ?? '' });
  }
  return rows;
}

/** The live descendants of `roots` in `table`, through parent pids. */
function descendantsOf(roots: readonly number[], table: readonly ProcessRow[]): ProcessRow[] {
  const children = new Map<number, ProcessRow[]>();
  for (const row of table) children.set(row.ppid, [...(children.get(row.ppid) ?? []), row]);
  const found: ProcessRow[] = [];
  const queue = [...roots];
  const seen = new Set(roots);
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    for (const child of children.get(next) ?? []) {
      if (seen.has(child.pid)) continue;
      seen.add(child.pid);
      found.push(child);
      queue.push(child.pid);
    }
  }
  return found;
}

/** Watches one process group leader's descendants until `stop`. */
export class DescendantWatch {
  /** pid → start time of every descendant seen outside the leader's group */
  private readonly escaped = new Map<number, string>();
  private readonly timers: NodeJS.Timeout[] = [];

  constructor(private readonly leader: number) {
    for (const ms of FIRST_LOOKS_MS) this.timers.push(setTimeout(() => this.look(), ms).unref());
    this.timers.push(setInterval(() => this.look(), LOOK_EVERY_MS).unref());
  }

  /** Record the descendants that are not in the leader's group now. */
  look(): void {
    for (const row of descendantsOf([this.leader], processTable())) {
      if (row.pgid !== this.leader) this.escaped.set(row.pid, row.startTime);
    }
  }

  /**
   * Stop looking; SIGTERM every recorded process that is still the one recorded, and its
   * descendants now, then SIGKILL what is left after `graceMs`.
   */
  async stop(graceMs: number): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    const live = (): number[] => {
      const roots = [...this.escaped].filter(([pid, start]) => isSameProcess(pid, start)).map(([pid]) => pid);
      if (roots.length === 0) return [];
      return [...roots, ...descendantsOf(roots, processTable()).map((row) => row.pid)];
    };
    const first = live();
    if (first.length === 0) return;
    for (const pid of first) signal(pid, 'SIGTERM');
    const deadline = performance.now() + graceMs;
    while (live().length > 0 && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    for (const pid of live()) signal(pid, 'SIGKILL');
  }
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // gone already
  }
}
