// Keeping every process an agent call starts stoppable, including those that leave its process
// group (`setsid`): a cgroup when the system lets yoke make one, else a watch over its descendants.
import { writeFileSync } from 'node:fs';
import { openCgroupScope, type CgroupScope } from './cgroup-scope.js';
import { DescendantWatch } from './descendant-watch.js';

/** `auto`: a cgroup where possible, else the descendant watch; `descendants`: the watch only. */
export type ContainmentMode = 'auto' | 'descendants';

/** What contains one call's processes. */
export interface Containment {
  kind: 'cgroup' | 'descendants';
  /** the arguments for `sh` that run `command` inside the containment */
  shArgs(command: string): string[];
  /** the leader was spawned with pid `pid` */
  started(pid: number): void;
  /** the group is about to be killed while its leader still lives (a timeout, an abort): look once more */
  beforeKill(): void;
  /** after the group is gone: stop whatever is left (SIGTERM, then SIGKILL after `graceMs`) */
  stop(graceMs: number): Promise<void>;
}

/**
 * The wrapper joins the cgroup before it becomes the command (`exec`, same pid), so nothing the
 * command starts is ever outside it. A failed write is silent here; `started` notices it.
 */
const JOIN_CGROUP = '{ echo $$ > "$1"; } 2>/dev/null; exec sh -c "$2"';

function cgroupContainment(scope: CgroupScope): Containment {
  let fallback: DescendantWatch | null = null;
  return {
    kind: 'cgroup',
    shArgs: (command) => ['-c', JOIN_CGROUP, 'yoke-agent', scope.procsFile, command],
    started(pid) {
      // Moving a process that is already in the cgroup changes nothing; failing means the wrapper
      // failed too, and only the descendant watch is left.
      try {
        writeFileSync(scope.procsFile, String(pid));
      } catch {
        fallback = new DescendantWatch(pid);
      }
    },
    beforeKill: () => fallback?.look(),
    async stop(graceMs) {
      await fallback?.stop(graceMs);
      await scope.stop(graceMs);
    },
  };
}

function watchContainment(): Containment {
  let watch: DescendantWatch | null = null;
  return {
    kind: 'descendants',
    shArgs: (command) => ['-c', command],
    started(pid) {
      watch = new DescendantWatch(pid);
    },
    beforeKill: () => watch?.look(),
    stop: async (graceMs) => watch?.stop(graceMs),
  };
}

/** The containment for one call in the project at `project`. */
export async function openContainment(mode: ContainmentMode, project: string): Promise<Containment> {
  const scope = mode === 'auto' ? await openCgroupScope(project) : null;
  return scope === null ? watchContainment() : cgroupContainment(scope);
}
