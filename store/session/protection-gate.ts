// `yoke run`'s protection gate (DESIGN §16): take the first baseline, or refuse to run while the
// protected files differ from it (the user changed them between runs: `yoke protect refresh`).
import type { Config } from '../../config/types.js';
import { blobPath, readBlobFile, sha256 } from '../../effects/fs/blob-store.js';
import { keepBlobs } from '../../effects/protect/list-protected.js';
import { makeProtection, type Protection } from '../../machines/protect/protection.js';
import { driftSummary } from '../../machines/protect/protection-drift.js';
import { YokeError } from '../../errors/yoke-error.js';
import type { JournalWriter } from '../journal/journal-writer.js';
import type { JournalRecord } from '../journal/record.js';
import { scanPositions, type LedgerBase } from '../projections/checkpoint-ledger.js';
import { describeChanges, inspectProtection, protectionChanged } from './inspect-protection.js';
import type { WorkspacePaths } from './workspace-paths.js';

/** What the gate decided: the baseline in force (null: nothing was ever protected; it may protect nothing after a refresh), and whether it took it now. */
export interface ProtectionGate {
  protection: Protection | null;
  /** a `protect.baseline` record was journaled by this gate */
  took: boolean;
}

/**
 * Did an agent of the unfinished `run` work after the run last looked at its protected files? Then
 * a difference on disk is the agent's, and the run's own scan finds, reports and restores it.
 * `base`: the checkpoint `records` were read from (null: they are every record).
 */
export function agentWorkedSinceScan(records: readonly JournalRecord[], run: string | null, base: LedgerBase | null = null): boolean {
  if (run === null) return false;
  const { agentStarted, scanCompleted } = scanPositions(records, run, base);
  return agentStarted > scanCompleted;
}

/** A baseline whose record or blobs were altered refuses the workspace (exit 3): yoke cannot trust it to restore anything. */
export async function checkSound(paths: WorkspacePaths, protection: Protection, tampered: number | null): Promise<void> {
  if (tampered !== null) {
    throw new YokeError('workspace', `journal record ${tampered} (the protection baseline) was edited: its digest no longer matches its files, so yoke cannot trust it; restore .loop/.journal from a backup, or start over with a new workspace.`);
  }
  for (const file of protection.files) {
    const content = await readBlobFile(blobPath(paths.loopDir, file.sha256));
    if (content === null || sha256(content) !== file.sha256) {
      throw new YokeError('workspace', `the protection baseline's copy of ${file.path} (blob ${file.sha256.slice(0, 12)}) is ${content === null ? 'missing from' : 'corrupt in'} .loop/.journal/blobs, so yoke cannot restore it; restore .loop/.journal from a backup.`);
    }
  }
}

/**
 * Before a run starts or resumes: with no baseline yet and something to protect, take one (the
 * files' contents kept as blobs, one `protect.baseline` record). With a baseline, refuse (a
 * `blocked` error, exit 1) when the protected files or the patterns differ from it, listing each
 * change, unless an agent of the resumed run changed them (its scan restores them). Nothing is
 * ever refreshed here. `base`: the checkpoint the journal was read from (null: every record).
 */
export async function gateProtection(journal: JournalWriter, paths: WorkspacePaths, config: Config | null, resumed: string | null, base: LedgerBase | null = null): Promise<ProtectionGate> {
  const inspection = await inspectProtection(paths, config, journal.records);
  const { baseline, tampered } = inspection.history;
  if (baseline === null) {
    if (inspection.patterns.length === 0) return { protection: null, took: false };
    const protection = makeProtection(inspection.patterns, await keepBlobs(paths.loopDir, inspection.listed));
    journal.stage({ type: 'protect.baseline', run: null, machine: null, mv: null, payload: { protection } });
    await journal.flush();
    return { protection, took: true };
  }
  await checkSound(paths, baseline, tampered);
  if (!protectionChanged(inspection) || agentWorkedSinceScan(journal.records, resumed, base)) {
    return { protection: baseline, took: false };
  }
  const files = inspection.drift.length;
  const what = files > 0 ? `${files} protected file(s) changed since the protection baseline (${driftSummary(inspection.drift)})` : 'the `protect` directives changed since the protection baseline';
  throw new YokeError('blocked', `${what}; nothing was run. If the change is yours and deliberate, accept it with \`yoke protect refresh --why "…"\`, or undo it.`, await describeChanges(paths, inspection));
}
