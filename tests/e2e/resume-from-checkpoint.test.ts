// Resuming from a fold checkpoint (issue 15, docs/performance.md): `yoke run` and `yoke status` read
// only the records after the last checkpoint the journal vouches for. What users see must not change:
// a run killed after some checkpoints resumes to the same end; `yoke status` says the same as from
// every record; a forged, re-chained record is refused after the checkpoint as before it; and when
// an agent of the resumed run rewrites the journal, yoke puts back every byte it wrote, the ones
// before the checkpoint (which it did not parse) included. Real runs of the built CLI with a
// checkpoint every few records (YOKE_CHECKPOINT_EVERY).
import { chmodSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { rewriteJournal } from '../support/journal-edit.js';
import { journalPath, readJournal } from '../support/journal-records.js';
import { makeWorkspace, runYoke, type Workspace } from '../support/workspace.js';

const TIMEOUT = 180_000;
const EVERY = { YOKE_CHECKPOINT_EVERY: '12' };
const ITERATIONS = 5;

const AGENT = `#!/bin/sh
cat >/dev/null
echo "iteration $YOKE_ITERATION" >> work.txt
printf '{"input_tokens":1200,"output_tokens":300,"cost_usd":0.0123}' > "$YOKE_USAGE_FILE"
if [ -f "$SIDE/tamper" ]; then rm -f "$SIDE/tamper"; printf 'not a journal\\n' > .loop/.journal/journal.jsonl; fi
if [ "$YOKE_ITERATION" -ge ${ITERATIONS} ]; then printf 'STATUS: DONE\\n' > .loop/notes.md; else printf 'STATUS: IN_PROGRESS\\n' > .loop/notes.md; fi
`;

const workspaces: Workspace[] = [];
afterEach(async () => {
  for (const ws of workspaces.splice(0)) await ws.cleanup();
});

async function loopWorkspace(): Promise<Workspace> {
  const ws = await makeWorkspace(({ sideDir }) => ({
    '.loop/yoke.conf': ['mode loop', `agent cmd SIDE=${sideDir} sh ${sideDir}/agent.sh`, `max-iterations ${ITERATIONS + 1}`, 'guard ok true', 'commit each', ''].join('\n'),
    '.loop/plan.md': '# Plan\nwrite work.txt\n',
    '.loop/protocol.md': '# Protocol\none step at a time\n',
    '.loop/notes.md': 'STATUS: IN_PROGRESS\n',
    '.loop/.gitignore': '.journal/\n.stash/\n',
  }));
  writeFileSync(ws.side('agent.sh'), AGENT);
  chmodSync(ws.side('agent.sh'), 0o755);
  workspaces.push(ws);
  return ws;
}

/** The seq of the record `yoke run` is killed after: the 4th guard result told to the machine, well after several checkpoints. */
let crashAt = 0;
/** The last checkpoint before it: the one the resume reads from. */
let checkpointUpTo = 0;

beforeAll(async () => {
  const ws = await loopWorkspace();
  const result = await runYoke(ws, ['run', '--quiet'], { env: EVERY });
  expect(result.exitCode, result.stderr).toBe(0);
  const records = await readJournal(ws);
  crashAt = records.filter((r) => r.type === 'event' && (r.payload as { event: { type: string } }).event.type === 'CHECK_FINISHED')[3]?.seq ?? 0;
  const checkpoints = records.filter((r) => r.type === 'checkpoint' && r.seq < crashAt);
  expect(checkpoints.length, 'several checkpoints before the crash').toBeGreaterThan(3);
  checkpointUpTo = (checkpoints.at(-1)?.payload as { upTo: number }).upTo;
}, TIMEOUT);

/** A run killed (kill -9) right after `crashAt`: its journal vouches for a checkpoint well inside it. */
async function crashedRun(): Promise<Workspace> {
  const ws = await loopWorkspace();
  const crashed = await runYoke(ws, ['run', '--quiet'], { env: { ...EVERY, YOKE_FAILPOINT: `crash-after:${crashAt}` } });
  expect(crashed.signal).toBe('SIGKILL');
  const saved = JSON.parse(readFileSync(ws.abs('.loop/.journal/checkpoint.json'), 'utf8')) as { upTo: number };
  expect(saved.upTo).toBe(checkpointUpTo);
  return ws;
}

/** What `yoke status --json` folds from the journal (the status view removed first); liveness, which comes from the lock and heartbeat, left out. */
async function foldedStatus(ws: Workspace): Promise<Record<string, unknown>> {
  rmSync(ws.abs('.loop/.journal/status.json'), { force: true });
  const status = await runYoke(ws, ['status', '--json']);
  expect(status.exitCode, status.stderr).toBe(0);
  const { running: _running, pid: _pid, liveness: _liveness, yokePid: _yokePid, phase: _phase, agent: _agent, lanes: _lanes, ...folded } = JSON.parse(status.stdout) as Record<string, unknown>;
  return folded;
}

describe('resume from a checkpoint', () => {
  it('status from the checkpoint says what status from every record says, and the run resumes to the end an uncrashed run reaches', async () => {
    const ws = await crashedRun();
    const fromCheckpoint = await foldedStatus(ws);
    const checkpoint = ws.abs('.loop/.journal/checkpoint.json');
    renameSync(checkpoint, `${checkpoint}.aside`);
    expect(await foldedStatus(ws)).toEqual(fromCheckpoint);
    renameSync(`${checkpoint}.aside`, checkpoint);
    expect(fromCheckpoint).toMatchObject({ status: 'unfinished', iteration: 4 });
    expect(fromCheckpoint.usage).toMatchObject({ calls: 4, knownInputTokens: 4 * 1200 });

    const resumed = await runYoke(ws, ['run', '--quiet'], { env: EVERY });
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    expect((await ws.read('work.txt')).trim().split('\n')).toEqual(['iteration 1', 'iteration 2', 'iteration 3', 'iteration 4', 'iteration 5']);
    expect(await ws.gitLog()).toHaveLength(1 + ITERATIONS);
    const verify = await runYoke(ws, ['replay', '--verify']);
    expect(verify.exitCode, verify.stdout + verify.stderr).toBe(0);
    const records = await readJournal(ws);
    expect(records.filter((r) => r.type === 'run.resumed')).toHaveLength(1);
    expect(records.at(-1)?.type).toBe('run.finished');
  }, TIMEOUT);

  it('a forged, re-chained record is refused after the checkpoint as before it (exit 3, naming the record)', async () => {
    for (const where of ['after', 'before'] as const) {
      const ws = await crashedRun();
      const records = await readJournal(ws);
      // a guard result flipped from pass to fail, in its effect.completed and in the event that told the machine
      const guard = records.filter((r) => r.type === 'effect.completed' && (r.payload as { kind: string }).kind === 'check.run' && (where === 'after' ? r.seq > checkpointUpTo : r.seq < checkpointUpTo - 20)).at(where === 'after' ? 0 : -1);
      expect(guard, `a guard result ${where} the checkpoint`).toBeDefined();
      const key = (guard?.payload as { key: string }).key;
      rewriteJournal(journalPath(ws.path), (record) => {
        const payload = record.payload as { key?: string; cause?: string; result?: { exitCode: number }; event?: { result: { exitCode: number } } };
        if (record.type === 'effect.completed' && payload.key === key && payload.result) payload.result.exitCode = 1;
        if (record.type === 'event' && payload.cause === key && payload.event) payload.event.result.exitCode = 1;
      });
      // refused at the record `yoke replay --verify` names as the first divergence
      const verify = await runYoke(ws, ['replay', '--verify', '--json']);
      expect(verify.exitCode, verify.stdout).toBe(1);
      const seq = (JSON.parse(verify.stdout) as { divergence: { seq: number } }).divergence.seq;
      expect(seq).toBeGreaterThan(guard?.seq ?? Number.POSITIVE_INFINITY);
      const before = readFileSync(journalPath(ws.path));
      const refused = await runYoke(ws, ['run', '--quiet'], { env: EVERY });
      expect(refused.exitCode, `${where}: ${refused.stderr}`).toBe(3);
      expect(refused.stderr).toContain(`journal.jsonl:${seq}: record ${seq} (`);
      expect(readFileSync(journalPath(ws.path)).equals(before), 'the refused journal is left as it was').toBe(true);
    }
  }, TIMEOUT);

  it('an agent of the resumed run rewrites the journal: yoke puts back every byte it wrote, those before the checkpoint included', async () => {
    const ws = await crashedRun();
    const crashed = readFileSync(journalPath(ws.path));
    writeFileSync(ws.side('tamper'), '');
    const stopped = await runYoke(ws, ['run', '--quiet'], { env: EVERY });
    expect(stopped.exitCode, stopped.stderr).toBe(3);
    expect(stopped.stderr).toMatch(/yoke put its own journal back/);
    const restored = readFileSync(journalPath(ws.path));
    expect(restored.subarray(0, crashed.length).equals(crashed), 'the journal as the crashed run left it, byte for byte').toBe(true);
    expect(restored.length).toBeGreaterThan(crashed.length);
    const verify = await runYoke(ws, ['replay', '--verify']);
    expect(verify.exitCode, verify.stdout + verify.stderr).toBe(0);
    const finished = await runYoke(ws, ['run', '--quiet'], { env: EVERY });
    expect(finished.exitCode, finished.stderr).toBe(0);
  }, TIMEOUT);
});
