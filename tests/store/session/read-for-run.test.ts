// `yoke run`'s read before the lease (store/session/read-for-run.ts) and the session opened on it: when
// it resumes the run a saved checkpoint is of, the records before the checkpoint are not read (only
// its ledger's kept records stand for them), the writer opens on that read, the resume folds from
// the checkpoint to the state a fold of every record reaches, and a rescue after a foreign rewrite
// puts back the journal's bytes before the checkpoint, which the writer never parsed.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LIFECYCLES, type Lifecycle } from '../../../machines/lifecycles/registry.js';
import type { FoldCheckpoint } from '../../../store/fold/fold-checkpoint.js';
import { canonical, RunFold } from '../../../store/fold/run-fold.js';
import { driveRun } from '../../../store/fold/runner.js';
import { readJournalFile } from '../../../store/journal/file/journal-file.js';
import { openFileJournal } from '../../../store/journal/file/open-file-journal.js';
import type { StartedRecord } from '../../../store/journal/record.js';
import { beginRun } from '../../../store/session/begin-run.js';
import { CheckpointTaker } from '../../../store/session/checkpoint-taker.js';
import { loadCheckpoint } from '../../../store/session/checkpoint-file.js';
import { foldCheckedRun } from '../../../store/session/fold-checked-run.js';
import { openWorkspace } from '../../../store/session/open-workspace.js';
import { readForRun } from '../../../store/session/read-for-run.js';
import { workspacePaths } from '../../../store/session/workspace-paths.js';
import { memoryLoopInput } from '../../support/memory-input.js';
import { removeScratch, scratchDir } from '../../support/memory-process.js';
import { MemoryWorld } from '../../support/memory-world.js';

const loop = LIFECYCLES.loop as Lifecycle;
const root = scratchDir('yoke-read-for-run-');
afterAll(() => removeScratch(root));

/**
 * A workspace whose journal a real runner wrote (a checkpoint every 15 records), cut right after a
 * record vouching for a checkpoint well inside the run: what a crash there leaves, that checkpoint saved.
 */
async function interruptedWorkspace(): Promise<{ paths: ReturnType<typeof workspacePaths>; checkpoint: FoldCheckpoint; cut: Buffer }> {
  const paths = workspacePaths(join(root, 'project'));
  mkdirSync(paths.journalDir, { recursive: true });
  const sidecar = join(root, 'taken.json');
  const journal = await openFileJournal(paths.journal);
  const started = journal.stage({ run: '01READFORRUN00000000000000', machine: loop.name, mv: loop.version, type: 'run.started', payload: { mode: 'loop', input: memoryLoopInput(['max-iterations 6', 'guard tests npm test', 'commit each']), argv: ['run'] } }) as StartedRecord;
  await journal.flush();
  const taker = new CheckpointTaker(paths.journal, sidecar, () => journal.records);
  const taken: FoldCheckpoint[] = [];
  const world = new MemoryWorld();
  await driveRun(new RunFold(loop.machine, started), {
    journal, lifecycle: loop, handlers: world.handlers(() => Promise.resolve()), root: paths.root, loopDir: paths.loopDir,
    output: { stdout: () => undefined, stderr: () => undefined }, warn: (message) => { throw new Error(message); }, signal: new AbortController().signal,
    checkpoints: {
      every: 15,
      take: (fold, head) => {
        const digest = taker.take(fold, head);
        const saved = loadCheckpoint(sidecar);
        if (saved !== null) taken.push(saved);
        return digest;
      },
    },
  });
  await journal.close();
  const records = readJournalFile(paths.journal).records;
  const vouching = records.filter((record) => record.type === 'checkpoint');
  const chosen = vouching[Math.floor(vouching.length / 2)];
  const checkpoint = taken.find((candidate) => candidate.digest === (chosen?.payload as { digest: string } | undefined)?.digest);
  if (chosen === undefined || checkpoint === undefined) throw new Error('the run took no checkpoint');
  const lines = readFileSync(paths.journal, 'utf8').split('\n').slice(0, chosen.seq + 3);
  writeFileSync(paths.journal, `${lines.join('\n')}\n`);
  writeFileSync(join(paths.journalDir, 'checkpoint.json'), JSON.stringify(checkpoint));
  return { paths, checkpoint, cut: readFileSync(paths.journal) };
}

describe('read for run', () => {
  it('resuming the checkpoint\'s run reads from the checkpoint on, folds to the full fold\'s state, and a rescue puts back the bytes before it', async () => {
    const { paths, checkpoint, cut } = await interruptedWorkspace();
    const every = readJournalFile(paths.journal).records;
    const started = every[0] as StartedRecord;

    expect((await readForRun(paths, true)).from, '--fresh reads every record').toBeNull();
    const read = await readForRun(paths, false);
    expect(read.from?.checkpoint.digest).toBe(checkpoint.digest);
    expect(read.records.map((record) => record.seq)).toEqual([...checkpoint.ledger.kept.map((record) => record.seq), ...every.slice(checkpoint.upTo).map((record) => record.seq)]);
    expect(read.records.length).toBeLessThan(every.length / 2);

    const session = await openWorkspace(paths, { command: 'yoke run', warn: () => undefined, onStale: () => undefined, known: read });
    try {
      expect(session.readFrom?.checkpoint.upTo).toBe(checkpoint.upTo);
      expect(session.journal.base?.seq).toBe(checkpoint.upTo);
      expect(session.unfinished).toBe(started.run);
      const { plan, fold } = await beginRun(session.journal, { fresh: false, start: null, checkpoint: session.readFrom?.checkpoint ?? null, readLoopFile: () => null, loopDir: paths.loopDir });
      expect(plan.kind).toBe('resume');
      const full = foldCheckedRun(every, started, (seq) => `record ${seq}`);
      const resumed = session.journal.records.at(-1);
      if (resumed?.type !== 'run.resumed') throw new Error('no run.resumed');
      full.apply(resumed);
      expect(canonical(fold.state())).toBe(canonical(full.state()));

      // someone rewrites the journal: the rescue puts back what yoke wrote, the bytes before the checkpoint included
      writeFileSync(paths.journal, 'not a journal\n');
      expect(await session.journal.untouched()).toBe(false);
      await session.journal.rescue();
      const rescued = readFileSync(paths.journal);
      expect(rescued.subarray(0, cut.length).equals(cut)).toBe(true);
      expect(readJournalFile(paths.journal).records.map((record) => record.type)).toEqual([...every.map((record) => record.type), 'run.resumed']);
      await session.journal.append({ type: 'run.interrupted', run: started.run, machine: started.machine, mv: started.mv, payload: { signal: 'SIGINT' } });
    } finally {
      await session.close();
    }
    expect(readJournalFile(paths.journal).records.at(-1)?.type).toBe('run.interrupted');
  });
});
