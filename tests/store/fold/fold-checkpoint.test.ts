// Fold checkpoints (store/fold/fold-checkpoint.ts, store/session/checkpoint-file.ts): for runs the
// real runner journals (in-process, over a MemoryWorld) with a checkpoint every few records, and a
// crash after any record, resuming from any checkpoint the journal vouches for folds to exactly the
// state a fold from the start reaches; a checkpoint the journal does not vouch for (taken after the
// crash point, edited, forged with a recomputed digest, another journal's) is never used.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { LIFECYCLES, type Lifecycle } from '../../../machines/lifecycles/registry.js';
import { checkpointDigest, trustedCheckpoint, type FoldCheckpoint } from '../../../store/fold/fold-checkpoint.js';
import { canonical, RunFold } from '../../../store/fold/run-fold.js';
import { driveRun } from '../../../store/fold/runner.js';
import { openFileJournal } from '../../../store/journal/file/open-file-journal.js';
import { readJournalFile } from '../../../store/journal/file/journal-file.js';
import type { JournalRecord, StartedRecord } from '../../../store/journal/record.js';
import { loadCheckpoint, resumeFromCheckpoint } from '../../../store/session/checkpoint-file.js';
import { CheckpointTaker } from '../../../store/session/checkpoint-taker.js';
import { foldCheckedRun } from '../../../store/session/fold-checked-run.js';
import { memoryLoopInput } from '../../support/memory-input.js';
import { removeScratch, scratchDir } from '../../support/memory-process.js';
import { MemoryWorld } from '../../support/memory-world.js';

const loop = LIFECYCLES.loop as Lifecycle;
const root = scratchDir('yoke-checkpoint-');
afterAll(() => removeScratch(root));
let serial = 0;
let vouchedSeen = 0;

/** Drive a whole run with the real runner, a checkpoint every `every` records; every checkpoint taken, in order. */
async function journaledRun(iterations: number, every: number): Promise<{ path: string; records: JournalRecord[]; taken: FoldCheckpoint[] }> {
  serial += 1;
  const path = join(root, `journal-${serial}.jsonl`);
  const sidecar = join(root, `checkpoint-${serial}.json`);
  const input = memoryLoopInput([`max-iterations ${iterations}`, 'guard tests npm test', 'commit each']);
  const journal = await openFileJournal(path);
  const started = journal.stage({ run: '01CHECKPOINTRUN00000000000', machine: loop.name, mv: loop.version, type: 'run.started', payload: { mode: 'loop', input, argv: ['run'] } }) as StartedRecord;
  await journal.flush();
  const fold = new RunFold(loop.machine, started);
  const taker = new CheckpointTaker(path, sidecar, () => journal.records);
  const taken: FoldCheckpoint[] = [];
  const world = new MemoryWorld();
  const result = await driveRun(fold, {
    journal, lifecycle: loop, handlers: world.handlers(() => Promise.resolve()), root: '/project', loopDir: '/project/.loop',
    output: { stdout: () => undefined, stderr: () => undefined }, warn: (message) => { throw new Error(message); }, signal: new AbortController().signal,
    checkpoints: {
      every,
      take: (folded, head) => {
        const digest = taker.take(folded, head);
        const saved = loadCheckpoint(sidecar);
        if (digest === null || saved === null || saved.digest !== digest) throw new Error('the checkpoint was not saved');
        taken.push(saved);
        return digest;
      },
    },
  });
  await journal.close();
  expect(result.kind).toBe('finished');
  return { path, records: readJournalFile(path).records, taken };
}

/** The journal a crash right after record `seq` leaves (whole records up to it). */
function cutJournal(path: string, seq: number): string {
  const lines = readFileSync(path, 'utf8').split('\n').slice(0, seq);
  const cut = `${path}.cut-${seq}`;
  writeFileSync(cut, `${lines.join('\n')}\n`);
  return cut;
}

const locate = (seq: number): string => `record ${seq}`;
const stateOf = (fold: RunFold): string => canonical(fold.state());

/** The same checkpoint with its fold changed and its digest recomputed: what a forger would save. */
function forge(checkpoint: FoldCheckpoint): FoldCheckpoint {
  const fold = structuredClone(checkpoint.fold);
  const snapshot = fold.snapshot as { context: { iteration: number } };
  snapshot.context.iteration += 1;
  const body = { ...checkpoint, fold };
  return { ...body, digest: checkpointDigest(body) };
}

describe('fold checkpoints', () => {
  it('resume from a vouched-for checkpoint == resume by a full fold, for random runs and crash points; others are ignored', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 2, max: 6 }), fc.integer({ min: 3, max: 40 }), fc.double({ min: 0, max: 1, noNaN: true }), async (iterations, every, where) => {
        const { path, records, taken } = await journaledRun(iterations, every);
        expect(taken.length).toBeGreaterThan(0);
        const started = records[0] as StartedRecord;
        // a random crash point, and the whole journal (where its last checkpoint is always vouched for)
        for (const crashAt of [Math.max(2, Math.ceil(where * records.length)), records.length]) {
          const prefix = records.slice(0, crashAt);
          const cut = cutJournal(path, crashAt);
          const full = foldCheckedRun(prefix, started, locate);
          for (const checkpoint of taken) {
            const vouched = prefix.some((record) => record.type === 'checkpoint' && record.payload.digest === checkpoint.digest);
            expect(trustedCheckpoint(checkpoint, prefix, started) !== null).toBe(vouched);
            const resumed = foldCheckedRun(prefix, started, locate, checkpoint);
            expect(stateOf(resumed)).toBe(stateOf(full));
            const forward = resumeFromCheckpoint(cut, checkpoint);
            expect(forward !== null).toBe(vouched);
            if (vouched) vouchedSeen += 1;
            if (forward) {
              expect(stateOf(forward.fold)).toBe(stateOf(full));
              expect(forward.records.map((record) => record.seq)).toEqual(prefix.slice(checkpoint.upTo).map((record) => record.seq));
            }
            // forged: content changed, digest recomputed — no journal record vouches for it
            const forged = forge(checkpoint);
            expect(trustedCheckpoint(forged, prefix, started)).toBeNull();
            expect(resumeFromCheckpoint(cut, forged)).toBeNull();
            expect(stateOf(foldCheckedRun(prefix, started, locate, forged))).toBe(stateOf(full));
            // edited without a new digest: not even intact
            expect(trustedCheckpoint({ ...checkpoint, upTo: checkpoint.upTo + 1 }, prefix, started)).toBeNull();
          }
        }
      }),
      { numRuns: 25 },
    );
    expect(vouchedSeen).toBeGreaterThan(0);
  });

  it('ignores a checkpoint when the journal before it was edited, or when it belongs to another journal', async () => {
    const { path, records, taken } = await journaledRun(4, 10);
    const other = await journaledRun(4, 10);
    const checkpoint = taken[taken.length - 1] as FoldCheckpoint;
    // another journal of the same run id: its chain differs, so nothing there vouches for this checkpoint
    expect(trustedCheckpoint(checkpoint, other.records, other.records[0] as StartedRecord)).toBeNull();
    expect(resumeFromCheckpoint(other.path, checkpoint)).toBeNull();
    // a byte changed before the checkpoint (the records after it still chain): the prefix digest refuses it
    const text = readFileSync(path, 'utf8');
    const edited = `${path}.edited`;
    writeFileSync(edited, text.replace('"attempt":1', '"attempt":2'));
    expect(resumeFromCheckpoint(edited, checkpoint)).toBeNull();
    expect(resumeFromCheckpoint(path, checkpoint)).not.toBeNull();
    expect(records.some((record) => record.type === 'checkpoint')).toBe(true);
  });
});
