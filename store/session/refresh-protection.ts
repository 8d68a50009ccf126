// `yoke protect refresh`: the user accepts the protected files as they are now (DESIGN §16). The
// only way a protection baseline ever changes: explicit, journaled with the old and new digests,
// every changed path and the reason. Nothing else (no run, no other command) implies it.
import type { Config } from '../../config/types.js';
import { keepBlobs } from '../../effects/protect/list-protected.js';
import { protectionDrift } from '../../machines/protect/protection-drift.js';
import { makeProtection, type Protection } from '../../machines/protect/protection.js';
import { YokeError } from '../../errors/yoke-error.js';
import { unfinishedRun } from '../fold/journal-runs.js';
import type { JournalWriter } from '../journal/journal-writer.js';
import type { Payload } from '../journal/record.js';
import { describeChanges, inspectProtection, protectionChanged } from './inspect-protection.js';
import { agentWorkedSinceScan, checkSound } from './protection-gate.js';
import type { WorkspacePaths } from './workspace-paths.js';

/** What a refresh did: nothing (the files match the baseline), or the new baseline and what it accepted. */
export type RefreshOutcome =
  | { refreshed: false; baseline: Protection }
  | { refreshed: true; baseline: Protection; previous: Protection; record: Payload<'protect.refreshed'>; seq: number; lines: string[] };

/**
 * Journal a `protect.refreshed` record for the protected files as they are now. Refuses (exit 2)
 * with no baseline yet; refuses the workspace (exit 3) when the baseline was tampered with; refuses
 * (exit 1) when an agent of the unfinished run changed protected files after its last scan: those
 * changes are the agent's, and `yoke run` restores them instead of anyone accepting them.
 */
export async function refreshProtection(journal: JournalWriter, paths: WorkspacePaths, config: Config | null, why: string | null): Promise<RefreshOutcome> {
  const inspection = await inspectProtection(paths, config, journal.records);
  const { baseline, tampered } = inspection.history;
  if (baseline === null) {
    throw new YokeError('usage', 'there is no protection baseline to refresh yet: the first `yoke run` with a `protect` line in yoke.conf takes it; nothing was changed.');
  }
  await checkSound(paths, baseline, tampered);
  if (!protectionChanged(inspection)) return { refreshed: false, baseline };
  if (agentWorkedSinceScan(journal.records, unfinishedRun(journal.records))) {
    throw new YokeError('blocked', 'the unfinished run\'s agent worked after the run last checked its protected files, so these changes may be the agent\'s; nothing was refreshed. Run `yoke run` (it restores what the agent changed), then refresh what is still yours.', await describeChanges(paths, inspection));
  }
  const lines = await describeChanges(paths, inspection);
  const protection = makeProtection(inspection.patterns, await keepBlobs(paths.loopDir, inspection.listed));
  const patternsChanged = inspection.patternsAdded.length > 0 || inspection.patternsRemoved.length > 0;
  const record: Payload<'protect.refreshed'> = {
    protection,
    previous: baseline.digest,
    why,
    changes: protectionDrift(baseline.files, protection.files).map((entry) => ({
      path: entry.path,
      kind: entry.kind,
      before: entry.before?.sha256 ?? null,
      after: entry.after?.sha256 ?? null,
    })),
    ...(patternsChanged ? { previousPatterns: baseline.patterns } : {}),
  };
  const staged = journal.stage({ type: 'protect.refreshed', run: null, machine: null, mv: null, payload: record });
  await journal.flush();
  return { refreshed: true, baseline: protection, previous: baseline, record, seq: staged.seq, lines };
}
