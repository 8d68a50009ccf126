// `yoke replay` in a real workspace through the built CLI: the latest run by default, a run by
// prefix, --at, --verify, and the usage errors. (Verification itself: tests/store/verify-run.test.ts
// and tests/golden/.)
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectRefusal } from '../../support/cli-expect.js';
import { appendTornLine } from '../../support/journal-edit.js';
import { journalPath, readJournal } from '../../support/journal-records.js';
import { confHead } from '../../support/loop-conf.js';
import { makeLoopWorkspace } from '../../support/loop-workspace.js';
import { runYoke, type Workspace } from '../../support/workspace.js';

let ws: Workspace;
let run: string;

beforeAll(async () => {
  const made = await makeLoopWorkspace({ conf: [...confHead(3), 'guard ok true', 'commit off'], script: { steps: { '1': { notes: 'IN_PROGRESS' } }, default: { notes: 'DONE' } } });
  ws = made.ws;
  const result = await runYoke(ws, ['run', '--quiet'], { env: made.env });
  expect(result.exitCode, result.stderr).toBe(0);
  run = (await readJournal(ws)).find((r) => r.type === 'run.started')?.run ?? '';
});

afterAll(() => ws.cleanup());

describe('yoke replay in a workspace', () => {
  it('shows the latest run, and the same run by a unique prefix of its id', async () => {
    const latest = await runYoke(ws, ['replay']);
    expect(latest.exitCode, latest.stderr).toBe(0);
    expect(latest.stdout).toMatch(new RegExp(`^run ${run} \\(loop, machine loop v\\d+\\)`));
    expect(latest.stdout).toMatch(/working → restoringAfterWorker +AGENT_EXITED +agent\.spawn worker #2 → exit 0/);
    expect(latest.stdout).toMatch(/^outcome: finished in done: done \(exit 0\)/m);
    const byPrefix = await runYoke(ws, ['replay', run.slice(0, 6).toLowerCase()]);
    expect(byPrefix.stdout).toBe(latest.stdout);
  });

  it('--at prints the state, what is owed and the context there; --verify agrees', async () => {
    const agent = (await readJournal(ws)).find((r) => r.type === 'effect.started' && (r.payload as { kind: string }).kind === 'agent.spawn');
    const at = await runYoke(ws, ['replay', '--at', String(agent?.seq), '--json']);
    expect(JSON.parse(at.stdout)).toMatchObject({ run, seq: agent?.seq, record: 'effect.started', state: 'working', status: 'active', owed: [{ kind: 'agent.spawn' }], context: { iteration: 1 } });
    const verify = await runYoke(ws, ['replay', '--verify']);
    expect(verify.exitCode, verify.stdout).toBe(0);
    expect(verify.stdout).toMatch(new RegExp(`^run ${run} \\(loop v\\d+\\): verified: `));
  });

  it('refuses an unknown run, conflicting flags and an --at outside the journal with exit 2', async () => {
    expectRefusal(await runYoke(ws, ['replay', 'ZZZZ']), 2, /no run id starts with ZZZZ; list them with `yoke runs`/);
    expectRefusal(await runYoke(ws, ['replay', '--verify', '--at', '3']), 2, /--verify and --at cannot be combined/);
    expectRefusal(await runYoke(ws, ['replay', '--all']), 2, /--all goes with --verify/);
    expectRefusal(await runYoke(ws, ['replay', '--at', '100000']), 2, /the journal ends at seq \d+/);
  });

  it('reads a journal with a torn tail without repairing it (replay never writes)', async () => {
    appendTornLine(journalPath(ws.path), 3);
    const before = readFileSync(journalPath(ws.path));
    const result = await runYoke(ws, ['replay']);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/journal\.jsonl:\d+: the last line is torn .*ignored here/);
    expect((await runYoke(ws, ['replay', '--verify'])).exitCode).toBe(0);
    expect(readFileSync(journalPath(ws.path)).equals(before)).toBe(true);
  });
});
