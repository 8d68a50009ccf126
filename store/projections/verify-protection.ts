// `yoke replay --verify` for protected acceptance (DESIGN §16): the protection records and what each
// run protected are decisions too. Every `protect.baseline` / `protect.refreshed` record must still
// be sound (its digest matches its patterns and files: `yoke run` refuses the workspace otherwise),
// and a run must protect exactly the baseline in force when it started (its input), or when it was
// told of a refresh (`PROTECTION_REFRESHED`). Streamed: one record at a time, in journal order.
import { protectionSound, type Protection } from '../../machines/protect/protection.js';
import { firstDifference } from './first-difference.js';
import type { JournalRecord, StartedRecord } from '../journal/record.js';
import type { Divergence } from './verify-run.js';

/** What the journal says and what the baseline in force is, compared; null when they agree. */
function mismatch(record: JournalRecord, path: string, what: string, journal: Protection | undefined, inForce: Protection | null): Divergence | null {
  const difference = firstDifference(journal ?? null, inForce);
  if (difference === null) return null;
  return {
    seq: record.seq, record: record.type, key: null, what,
    path: difference.path === '' ? path : `${path}.${difference.path}`,
    journal: difference.path === '' ? journal ?? null : difference.journal,
    machine: difference.path === '' ? inForce : difference.machine,
  };
}

/** The baseline in force as the journal is read, and the first protection record that was edited. */
export class ProtectionChecker {
  private inForce: Protection | null = null;
  /** the first `protect.*` record whose digest no longer matches its content: the journal is forged there */
  forged: Divergence | null = null;

  /** Fold a record: a protection record becomes the baseline in force (and is checked for soundness). */
  observe(record: JournalRecord): void {
    if (record.type !== 'protect.baseline' && record.type !== 'protect.refreshed') return;
    const { protection } = record.payload;
    if (this.forged === null && !protectionSound(protection)) {
      this.forged = {
        seq: record.seq, record: record.type, key: null, path: 'payload.protection.digest',
        what: `the protection record was edited after it was written: its digest no longer matches its patterns and files (\`yoke run\` refuses this workspace)`,
        journal: protection.digest, machine: null,
      };
    }
    this.inForce = protection;
  }

  /** A run's start: no protection record before it was edited, and the protection in its input is the baseline in force (none when that protects nothing). */
  startDivergence(started: StartedRecord): Divergence | null {
    // a forged baseline is the first thing wrong, whatever the run made of it
    if (this.forged !== null) return this.forged;
    const input = (started.payload.input as { protection?: Protection } | undefined)?.protection;
    const base = this.inForce;
    // A baseline of nothing (refreshed to no pattern and no file) is left out of the input.
    const expected = base !== null && (base.patterns.length > 0 || base.files.length > 0) ? base : null;
    return mismatch(started, 'payload.input.protection', 'the run protects another baseline than the one in force when it started', input, expected);
  }

  /** A record of a run: a refresh the run was told of is the baseline in force then. */
  check(record: JournalRecord): Divergence | null {
    if (record.type !== 'event' || record.payload.event.type !== 'PROTECTION_REFRESHED') return null;
    const told = (record.payload.event as { protection?: Protection }).protection;
    return mismatch(record, 'payload.event.protection', 'the run was told of another protection refresh than the baseline in force', told, this.inForce);
  }
}
