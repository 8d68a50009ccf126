// Before a run resumes, stop any process group a crashed yoke left running (pid + start time).
import { killProcessGroup } from '../effects/process-identity.js';
import type { RunFold } from './run-fold.js';

/**
 * For every effect of the run whose process was journaled but which never completed, stop that
 * process group, so two agents never work at once. Returns the keys of the groups stopped.
 */
export async function stopOrphans(fold: RunFold): Promise<string[]> {
  const stopped: string[] = [];
  for (const status of fold.effects.values()) {
    if (!status.process || status.completed || status.interrupted) continue;
    if (await killProcessGroup(status.process.pid, status.process.startTime, 2000)) stopped.push(status.request.key);
  }
  return stopped;
}
