// A forged, re-chained journal record (issue 20, item 3): the chain is an unkeyed hash, so an edit
// with the chain recomputed passes every structural check. `yoke run` must still refuse to build on
// it (exit 3, naming the record), as `yoke replay --verify` does. The built CLI, real runs.
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { rewriteJournal } from '../support/journal-edit.js';
import { journalPath, readJournal, type JournalRecord } from '../support/journal-records.js';
import { makeJudgedWorkspace } from '../support/judged-workspace.js';
import { runYoke, type Workspace } from '../support/workspace.js';

const TIMEOUT = 90_000;
const workspaces: Workspace[] = [];
afterEach(async () => {
  for (const ws of workspaces.splice(0)) await ws.cleanup();
});

/** A loop run that finished (exit 0): iteration 1 in progress, iteration 2 DONE, guard `ok` passing both times. */
async function finishedRun(): Promise<Workspace> {
  const { ws } = await makeJudgedWorkspace({
    mode: 'loop',
    conf: ['max-iterations 3', 'commit off', 'guard ok true'],
    script: { worker: [{ notes: 'IN_PROGRESS' }, { notes: 'DONE' }] },
  });
  workspaces.push(ws);
  const first = await runYoke(ws, ['run', '--quiet']);
  expect(first.exitCode, first.stderr).toBe(0);
  return ws;
}

/** The seq `yoke replay --verify` names for the journal as it is now. */
async function verifySeq(ws: Workspace): Promise<number> {
  const result = await runYoke(ws, ['replay', '--verify', '--json']);
  expect(result.exitCode, result.stdout).toBe(1);
  return (JSON.parse(result.stdout) as { divergence: { seq: number } }).divergence.seq;
}

/** Flip the last guard's result from pass to fail, in its effect.completed and in the event it told the machine. */
function flipLastGuard(ws: Workspace): void {
  const records = readJournalSync(ws);
  const guard = records.filter((r) => r.type === 'effect.completed' && (r.payload as { kind: string }).kind === 'check.run').at(-1);
  if (!guard) throw new Error('no guard result in the journal');
  const key = (guard.payload as { key: string }).key;
  rewriteJournal(journalPath(ws.path), (record) => {
    const payload = record.payload as { key?: string; cause?: string; result?: { exitCode: number }; event?: { result: { exitCode: number } } };
    if (record.type === 'effect.completed' && payload.key === key && payload.result) payload.result.exitCode = 1;
    if (record.type === 'event' && payload.cause === key && payload.event) payload.event.result.exitCode = 1;
  });
}

function readJournalSync(ws: Workspace): JournalRecord[] {
  return readFileSync(journalPath(ws.path), 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as JournalRecord);
}

/** `yoke run` refuses with exit 3, naming journal.jsonl:<seq> and record <seq>, and writes nothing. */
async function expectRefusedAt(ws: Workspace, seq: number): Promise<void> {
  const before = readFileSync(journalPath(ws.path));
  const refused = await runYoke(ws, ['run', '--quiet']);
  expect(refused.exitCode, refused.stderr).toBe(3);
  expect(refused.stderr).toContain(`journal.jsonl:${seq}: record ${seq} (`);
  expect(refused.stderr).toMatch(/yoke replay --verify/);
  expect(refused.stderr).toMatch(/yoke run --fresh/);
  expect(refused.stderr).not.toMatch(/unexpected error/);
  expect(readFileSync(journalPath(ws.path)).equals(before), 'the refused journal is left exactly as it was').toBe(true);
}

describe('issue 20 item 3: a forged, re-chained record was accepted by `yoke run`', () => {
  it('the last guard result flipped from pass to fail (and re-chained): `yoke run` refuses at the seq --verify names', async () => {
    const ws = await finishedRun();
    flipLastGuard(ws);
    const seq = await verifySeq(ws);
    await expectRefusedAt(ws, seq);
    // leaving the run behind deliberately works
    const fresh = await runYoke(ws, ['run', '--fresh', '--quiet']);
    expect(fresh.exitCode, fresh.stderr).toBe(0);
  }, TIMEOUT);

  it('run.finished with its exit code changed (and re-chained): `yoke run` refuses naming that record', async () => {
    const ws = await finishedRun();
    rewriteJournal(journalPath(ws.path), (record) => {
      if (record.type === 'run.finished') (record.payload as { exitCode: number }).exitCode = 1;
    });
    const finished = (await readJournal(ws)).find((r) => r.type === 'run.finished');
    expect(await verifySeq(ws)).toBe(finished?.seq);
    await expectRefusedAt(ws, finished?.seq ?? -1);
  }, TIMEOUT);

  it('a forged record inside the unfinished run: resuming refuses at the seq --verify names', async () => {
    const { ws } = await makeJudgedWorkspace({
      mode: 'loop',
      conf: ['max-iterations 3', 'commit off', 'guard ok true'],
      script: { worker: [{ notes: 'IN_PROGRESS' }, { notes: 'IN_PROGRESS' }, { notes: 'IN_PROGRESS' }] },
    });
    workspaces.push(ws);
    // die (as kill -9 would) as the third iteration begins, after the second one's guard result and report
    const records = await readJournal(ws);
    expect(records).toEqual([]);
    const crashed = await runYoke(ws, ['run', '--quiet'], { env: { YOKE_FAILPOINT: 'crash-after:44' } });
    expect(crashed.exitCode).not.toBe(0);
    const journal = await readJournal(ws);
    expect(journal.at(-1)?.type, 'the crash left the run unfinished').not.toBe('run.finished');
    flipLastGuard(ws);
    const seq = await verifySeq(ws);
    await expectRefusedAt(ws, seq);
  }, TIMEOUT);
});
