// One e2e file's temporary workspaces and stray processes, cleaned up after each of its tests.
import { afterEach } from 'vitest';
import { killQuietly, stillRunning, type ProcessMark } from './process-liveness.js';
import type { Workspace } from './workspace.js';

/** What a test registers for cleanup: workspaces to remove and pids to kill (stopped ones too). */
export interface E2eLeftovers {
  workspaces: Workspace[];
  leftoverPids: ProcessMark[];
}

/**
 * Register an `afterEach` that kills every pid in `leftoverPids` (continued first, in case a test
 * stopped it) and removes every workspace in `workspaces`, unless `KEEP_E2E=1`.
 */
export function cleanupAfterEach(): E2eLeftovers {
  const leftovers: E2eLeftovers = { workspaces: [], leftoverPids: [] };
  afterEach(async () => {
    for (const mark of leftovers.leftoverPids) {
      if (!stillRunning(mark)) continue;
      try {
        process.kill(mark.pid, 'SIGCONT');
      } catch {
        // gone
      }
    }
    killQuietly(leftovers.leftoverPids.splice(0));
    if (process.env.KEEP_E2E === '1') return;
    await Promise.all(leftovers.workspaces.splice(0).map((ws) => ws.cleanup()));
  });
  return leftovers;
}
