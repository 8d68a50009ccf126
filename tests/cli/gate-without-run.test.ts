// The operator's side of tool-call control with no live run (DESIGN §13): `yoke answer` on the
// holds a run journaled (a destructive hold takes --scope call only: exit 2; a standing answer ends
// with --revoke), and `yoke gate` with no run (an interactive session) ruling from the workspace's
// `tool` rows and its workspace answers, never naming a run it is not in.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ruleWithoutRun } from '../../cli/gate-without-run.js';
import { LIFECYCLES } from '../../machines/lifecycles/registry.js';
import { openGateServer } from '../../store/gate/gate-server.js';
import { openFileJournal } from '../../store/journal/file/open-file-journal.js';
import type { JournalWriter } from '../../store/journal/journal-writer.js';
import { memoryLoopInput } from '../support/memory-input.js';
import { makeWorkspace, runYoke, type Workspace } from '../support/workspace.js';
import { yokeBin } from '../support/yoke-process.js';

const run = '01GATENORUN000000000000000';
const workspaces: Workspace[] = [];
afterAll(async () => Promise.all(workspaces.map((ws) => ws.cleanup())));

const curl = { tool_name: 'Bash', tool_input: { command: 'curl -s http://127.0.0.1:9/' }, tool_use_id: 'toolu_curl' };
const wipe = { tool_name: 'Bash', tool_input: { command: 'rm -rf keep' }, tool_use_id: 'toolu_rm' };

function yokeGate(socket: string, stdin: unknown): Promise<void> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [yokeBin, 'gate', '--agent', 'claude'], { env: { ...process.env, YOKE_GATE_SOCKET: socket } });
    child.on('exit', () => resolve());
    child.stdin.end(JSON.stringify(stdin));
  });
}

/** A workspace (`tool exec hold` on line 4 of its yoke.conf) whose journal holds a run that held a curl (network) and, by a `tool destructive hold` row, an `rm -rf keep`. */
async function heldWorkspace(): Promise<Workspace> {
  const ws = await makeWorkspace({
    '.loop/yoke.conf': 'mode loop\nagent claude\nmax-iterations 1\ntool exec hold\n',
    '.loop/plan.md': '# Plan\n', '.loop/protocol.md': '# Protocol\n', '.loop/.gitignore': '.journal/\n.stash/\n', 'keep/file.txt': 'tracked\n',
  });
  workspaces.push(ws);
  const journal = await openFileJournal(join(ws.path, '.loop', '.journal', 'journal.jsonl'));
  const loop = LIFECYCLES.loop!;
  journal.stage({ run, machine: loop.name, mv: loop.version, type: 'run.started', payload: { mode: 'loop', input: memoryLoopInput([]), argv: ['run'] } });
  const server = await openGateServer({
    run, root: ws.path, home: null, config: { allow: [], noModify: [], toolRules: { destructive: { ruling: 'hold', line: 9 } }, toolControl: 'on' },
    protect: () => [], tracked: () => Promise.resolve(['keep/file.txt']),
    stage: (draft) => journal.stage({ ...draft, run, machine: loop.name, mv: loop.version } as Parameters<JournalWriter['stage']>[0]),
    stageOperator: (draft) => journal.stage(draft), flush: () => journal.flush(), records: () => journal.records, token: null,
  });
  server.setCall(`${run}/5/0`);
  await yokeGate(server.socketPath, curl);
  await yokeGate(server.socketPath, wipe);
  await server.close();
  await journal.close();
  return ws;
}

describe('answers and rulings without a live run', { timeout: 120_000 }, () => {
  it('`yoke answer --scope run` on a destructive hold exits 2 naming the tool row to write; a workspace answer stands for the gate with no run until `--revoke` ends it', async () => {
    const ws = await heldWorkspace();
    const holds = await runYoke(ws, ['holds', '--json']);
    expect(holds.exitCode, holds.stderr).toBe(0);
    const listed = JSON.parse(holds.stdout) as Array<{ id: string; class: string }>;
    expect(listed.map((hold) => hold.class)).toEqual(['network', 'destructive']);
    const [network, destructive] = listed as [{ id: string; class: string }, { id: string; class: string }];

    const wide = await runYoke(ws, ['answer', destructive.id, 'pass', '--scope', 'run']);
    expect(wide.exitCode).toBe(2);
    expect(wide.stderr).toContain('--scope run');
    expect(wide.stderr).toContain('tool destructive');

    const outside = (call: unknown) => ruleWithoutRun('claude', JSON.stringify({ ...(call as object), cwd: ws.path }), ws.path);
    expect((await outside(curl)).ruling, 'no answer stands yet: the shipped table holds network').toBe('hold');

    const answered = await runYoke(ws, ['answer', network.id, 'pass', '--scope', 'workspace', '--json']);
    expect(answered.exitCode, answered.stderr).toBe(0);
    const answer = (JSON.parse(answered.stdout) as { answer: string }).answer;
    const passed = await outside(curl);
    expect(passed).toMatchObject({ ruling: 'pass', warning: null });
    expect(passed.message).toContain(`answer ${answer}, scope workspace`);

    const revoked = await runYoke(ws, ['answer', '--revoke', answer]);
    expect(revoked.exitCode, revoked.stderr).toBe(0);
    expect((await outside(curl)).ruling, 'the revoked answer no longer stands').toBe('hold');
    const again = await runYoke(ws, ['answer', '--revoke', answer]);
    expect(again.exitCode).toBe(2);
    expect(again.stderr).toContain('already revoked');
  });

  it('the gate with no run rules by the workspace\'s `tool` rows, and its messages name no run', async () => {
    const ws = await heldWorkspace();
    const tests = await ruleWithoutRun('claude', JSON.stringify({ tool_name: 'Bash', tool_input: { command: 'npm test' }, cwd: ws.path }), ws.path);
    expect(tests.ruling).toBe('hold');
    expect(tests.message).toContain('`tool exec hold` on line 4 of .loop/yoke.conf');
    const wiped = await ruleWithoutRun('claude', JSON.stringify({ ...wipe, cwd: ws.path }), ws.path);
    expect(wiped.ruling, 'the run\'s own row (tool destructive hold) is not in yoke.conf: the shipped table refuses').toBe('refuse');
    for (const message of [tests.message, wiped.message]) expect(message).not.toContain('in this run');
    expect(wiped.message).toContain('every Bash call classified destructive is refused');
  });
});
