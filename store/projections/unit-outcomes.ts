// How each story or saga chunk of a finished run ended, for the routing ledger (DESIGN §15): folded
// through the run's own machine, so a story counts as blocked or a chunk as judged PASS exactly
// when the machine said so.
import type { LoopContext } from '../../machines/lifecycles/loop.js';
import { sequenceKey } from '../../machines/routing/sequence-route.js';
import { YokeError } from '../../errors/yoke-error.js';
import { lifecycleForRun } from '../fold/machine-versions.js';
import { RunFold } from '../fold/run-fold.js';
import type { JournalRecord, StartedRecord } from '../journal/record.js';

/** A unit of work that ended: accepted (passed its gates) or not (blocked, bailed out, capped). */
export type UnitOutcome = 'accepted' | 'failed';

/**
 * Each story (stories) or chunk (saga) of `records`' run that ended, by sequence key. A story ends
 * when it passed or was blocked; one still open when the run stopped (its cap) did not end. A chunk
 * ends when control returns to the scoper: accepted when its judge said PASS to a DONE. Null when
 * the run cannot be folded (a machine version this yoke lacks, or a record it refuses).
 */
export function unitOutcomes(started: StartedRecord, records: readonly JournalRecord[]): Map<string, UnitOutcome> | null {
  const outcomes = new Map<string, UnitOutcome>();
  try {
    const fold = new RunFold(lifecycleForRun(started).machine, started, ({ before, after }) => {
      if (started.machine !== 'saga' || after.value !== 'loggingChunk' || before?.value === 'loggingChunk') return;
      const context = after.context as Partial<LoopContext>;
      outcomes.set(sequenceKey({ chunk: context.chunk ?? null }), context.outcome?.reason === 'judge-pass' ? 'accepted' : 'failed');
    });
    for (const record of records) if (record.seq > started.seq && record.run === started.run) fold.apply(record);
    const progress = (fold.snapshot.context as Partial<LoopContext>).prd?.progress ?? {};
    for (const [id, story] of Object.entries(progress)) {
      if (story.passed || story.blocked !== null) outcomes.set(sequenceKey({ story: id }), story.passed ? 'accepted' : 'failed');
    }
    return outcomes;
  } catch (error) {
    if (error instanceof YokeError) return null;
    throw error;
  }
}
