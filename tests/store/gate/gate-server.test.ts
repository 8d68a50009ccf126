// The run's gate server with the built `yoke gate` (DESIGN §13): yoke journals every question as
// tool.requested + tool.ruled; malformed hook JSON is refused and journaled as unreadable (fail
// closed); the socket is private (0600 in a 0700 directory); with no agent call in progress every
// question is refused.
import { spawn } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openGateServer, type GateServer } from '../../../store/gate/gate-server.js';
import { openFileJournal } from '../../../store/journal/file/open-file-journal.js';
import type { JournalWriter } from '../../../store/journal/journal-writer.js';
import { yokeBin } from '../../support/yoke-process.js';
import { tellLiveRun } from '../../../cli/tell-live-run.js';
import { writeGatePointer } from '../../../store/gate/gate-pointer.js';
import { LIFECYCLES } from '../../../machines/lifecycles/registry.js';
import { memoryLoopInput } from '../../support/memory-input.js';

const run = '01GATETESTRVN0000000000000';
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function gate(token: string | null = null): Promise<{ server: GateServer; journal: JournalWriter; root: string }> {
  const root = mkdtempSync(join(tmpdir(), 'yoke-gate-test-'));
  cleanups.push(() => rmSync(root, { recursive: true, force: true }));
  const journal = await openFileJournal(join(root, 'journal.jsonl'));
  cleanups.push(() => journal.close());
  const server = await openGateServer({
    run, root, home: null,
    config: { allow: [], noModify: ['src/'], toolRules: undefined, toolControl: 'on' },
    protect: () => ['tests/', '**/*.snap'],
    tracked: () => Promise.resolve(['README.md', 'keep/a.txt']),
    stage: (draft) => journal.stage({ ...draft, run, machine: 'loop', mv: 1 } as Parameters<JournalWriter['stage']>[0]),
    stageOperator: (draft) => journal.stage(draft),
    flush: () => journal.flush(),
    records: () => journal.records,
    token,
  });
  cleanups.push(() => server.close());
  return { server, journal, root };
}

function yokeGate(socket: string, stdin: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [yokeBin, 'gate', '--agent', 'claude'], { env: { ...process.env, YOKE_GATE_SOCKET: socket } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => { stdout += chunk.toString(); });
    child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

const decision = (stdout: string): string => (JSON.parse(stdout) as { hookSpecificOutput: { permissionDecision: string } }).hookSpecificOutput.permissionDecision;

describe('the gate server', { timeout: 60_000 }, () => {
  it('is a 0600 socket in a 0700 directory', async () => {
    const { server } = await gate();
    expect(statSync(server.socketPath).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(server.socketPath)).mode & 0o777).toBe(0o700);
  });

  it('journals the request and the ruling before answering: a write under no-modify is refused as protected', async () => {
    const { server, journal, root } = await gate();
    server.setCall(`${run}/3/0`);
    const out = await yokeGate(server.socketPath, JSON.stringify({ tool_name: 'Write', tool_input: { file_path: join(root, 'src/a.txt'), content: 'x' }, tool_use_id: 'toolu_1', cwd: root }));
    expect(out.code).toBe(0);
    expect(decision(out.stdout)).toBe('deny');
    const types = journal.records.map((record) => record.type);
    expect(types).toEqual(['tool.requested', 'tool.ruled']);
    expect(journal.records[0]?.payload).toMatchObject({ callId: 'toolu_1', key: `${run}/3/0`, tool: 'Write' });
    expect(journal.records[1]?.payload).toMatchObject({ ruling: 'refuse', class: 'protected', source: { kind: 'table' }, enforced: true });
  });

  it('a write to a `protect` path (a folder, or a glob) is refused at call time, and the journaled scope carries the patterns', async () => {
    const { server, journal, root } = await gate();
    server.setCall(`${run}/3/0`);
    const write = (path: string) => yokeGate(server.socketPath, JSON.stringify({ tool_name: 'Write', tool_input: { file_path: join(root, path), content: 'x' }, tool_use_id: `toolu_${path}`, cwd: root }));
    expect(decision((await write('tests/a.test.ts')).stdout)).toBe('deny');
    expect(decision((await write('lib/ui/__snapshots__/b.snap')).stdout)).toBe('deny');
    expect(decision((await write('lib/a.ts')).stdout)).toBe('allow');
    const ruled = journal.records.filter((record) => record.type === 'tool.ruled').map((record) => (record.payload as { class: string; message: string }));
    expect(ruled.map((payload) => payload.class)).toEqual(['protected', 'protected', 'edit']);
    expect(ruled[0]?.message).toContain('protected by `protect tests/`');
    expect(journal.records[0]?.payload).toMatchObject({ scope: { protect: ['tests/', '**/*.snap'] } });
  });

  it('reads a script file the call runs and classifies its text: `sh clean.sh` and `./clean.sh` that delete keep/ are refused, `make clean` too, and the texts are journaled with the scope', async () => {
    const { server, journal, root } = await gate();
    writeFileSync(join(root, 'clean.sh'), '#!/bin/sh\nrm -rf keep\n', { mode: 0o755 });
    writeFileSync(join(root, 'Makefile'), 'clean:\n\trm -rf keep\n');
    server.setCall(`${run}/3/0`);
    const bash = (command: string) => yokeGate(server.socketPath, JSON.stringify({ tool_name: 'Bash', tool_input: { command }, tool_use_id: `toolu_${command}`, cwd: root }));
    for (const command of ['sh clean.sh', './clean.sh', 'make clean']) expect(decision((await bash(command)).stdout), command).toBe('deny');
    const ruled = journal.records.filter((record) => record.type === 'tool.ruled').map((record) => (record.payload as { class: string }).class);
    expect(ruled).toEqual(['destructive', 'destructive', 'destructive']);
    const requested = journal.records.filter((record) => record.type === 'tool.requested').map((record) => (record.payload as { scope: { scripts?: Record<string, string> } }).scope.scripts);
    expect(requested[0]).toEqual({ [join(root, 'clean.sh')]: '#!/bin/sh\nrm -rf keep\n' });
    expect(requested[2]).toMatchObject({ [join(root, 'Makefile')]: 'clean:\n\trm -rf keep\n' });
  });

  it('never reads a secret file a call runs into the journal: `. .env` and `sh .loop/.journal/gate.json` are refused without their text in the scope', async () => {
    const { server, journal, root } = await gate();
    writeFileSync(join(root, '.env'), 'API_KEY=sk-live-0123456789\n');
    const token = join(root, '.loop', '.journal', 'gate.json');
    mkdirSync(dirname(token), { recursive: true });
    writeFileSync(token, '{"token":"operator-secret-token"}\n');
    server.setCall(`${run}/3/0`);
    const bash = (command: string) => yokeGate(server.socketPath, JSON.stringify({ tool_name: 'Bash', tool_input: { command }, tool_use_id: `toolu_${command}`, cwd: root }));
    for (const command of ['. .env', 'source ./.env', 'sh .loop/.journal/gate.json']) expect(decision((await bash(command)).stdout), command).toBe('deny');
    // a script that is a link to a secret is not read either
    symlinkSync(join(root, '.env'), join(root, 'run.sh'));
    await bash('sh run.sh');
    const text = journal.records.map((record) => JSON.stringify(record)).join('\n');
    expect(text).not.toContain('sk-live-0123456789');
    expect(text).not.toContain('operator-secret-token');
    expect(journal.records.filter((record) => record.type === 'tool.ruled').map((record) => (record.payload as { class: string }).class).slice(0, 3)).toEqual(['secret', 'secret', 'secret']);
  });

  it('a call with a socket of its own (a parallel lane\'s) is ruled for that call, in its root, alongside the serial one; its holds are its own; its socket goes when it closes', async () => {
    const { server, journal, root } = await gate();
    const laneRoot = join(root, '.git/yoke/worktrees/S1');
    server.setCall(`${run}/3/0`);
    const lane = await server.openCall(`${run}/7/0`, laneRoot);
    expect(statSync(lane.socketPath).mode & 0o777).toBe(0o600);
    const write = (socket: string, path: string, id: string, cwd: string) => yokeGate(socket, JSON.stringify({ tool_name: 'Write', tool_input: { file_path: path, content: 'x' }, tool_use_id: id, cwd }));
    // the same absolute path: inside the lane's worktree for the lane's call, under .git/ for the serial one
    const [inLane, inMain] = await Promise.all([
      write(lane.socketPath, join(laneRoot, 'a.txt'), 'toolu_lane', laneRoot),
      write(server.socketPath, join(laneRoot, 'a.txt'), 'toolu_main', root),
    ]);
    expect(decision(inLane.stdout)).toBe('allow');
    expect(decision(inMain.stdout)).toBe('deny');
    const held = await yokeGate(lane.socketPath, JSON.stringify({ tool_name: 'Bash', tool_input: { command: 'curl -s http://127.0.0.1:9/' }, tool_use_id: 'toolu_curl', cwd: laneRoot }));
    expect(held.code).toBe(0);
    const requests = journal.records.filter((record) => record.type === 'tool.requested').map((record) => record.payload as { callId: string; key: string; scope: { root: string } });
    expect(requests.map((p) => [p.callId, p.key, p.scope.root]).sort()).toEqual([
      ['toolu_curl', `${run}/7/0`, laneRoot], ['toolu_lane', `${run}/7/0`, laneRoot], ['toolu_main', `${run}/3/0`, root],
    ]);
    expect(lane.heldInCall()).toHaveLength(1);
    expect(server.heldInCall()).toEqual([]);
    await lane.close();
    const late = await write(lane.socketPath, join(laneRoot, 'b.txt'), 'toolu_late', laneRoot);
    expect(late.stdout === '' ? 'deny' : decision(late.stdout), 'a closed call\'s socket lets nothing through').toBe('deny');
  });

  it('a lane call may not write or delete under a dependency folder linked to the main tree\'s (rm -rf node_modules/ would empty every lane\'s): protected, and the scope says which folders are linked', async () => {
    const { server, journal, root } = await gate();
    mkdirSync(join(root, 'node_modules', 'dep'), { recursive: true });
    writeFileSync(join(root, 'node_modules', 'dep', 'index.js'), 'module.exports = 1;\n');
    const laneRoot = mkdtempSync(join(tmpdir(), 'yoke-lane-'));
    cleanups.push(() => rmSync(laneRoot, { recursive: true, force: true }));
    symlinkSync(join(root, 'node_modules'), join(laneRoot, 'node_modules'));
    const lane = await server.openCall(`${run}/7/0`, laneRoot);
    const bash = (command: string) => yokeGate(lane.socketPath, JSON.stringify({ tool_name: 'Bash', tool_input: { command }, tool_use_id: `toolu_${command}`, cwd: laneRoot }));
    for (const command of ['rm -rf node_modules/', 'echo x > node_modules/dep/index.js']) expect(decision((await bash(command)).stdout), command).toBe('deny');
    expect(decision((await bash('echo x > src.js')).stdout)).toBe('allow');
    const ruled = journal.records.filter((record) => record.type === 'tool.ruled').map((record) => (record.payload as { class: string; message: string }));
    expect(ruled.map((payload) => payload.class)).toEqual(['protected', 'protected', 'edit']);
    expect(ruled[0]?.message).toContain("node_modules/, the main working tree's own linked into this lane");
    expect(journal.records.find((record) => record.type === 'tool.requested')?.payload).toMatchObject({ scope: { root: laneRoot, shared: ['node_modules'] } });
    await lane.close();
  });

  it('judges deletes against the tracked files: removing an untracked folder is an edit, emptying a tracked file destructive; the list is journaled once per agent call', async () => {
    const { server, journal, root } = await gate();
    server.setCall(`${run}/3/0`);
    const bash = (command: string) => yokeGate(server.socketPath, JSON.stringify({ tool_name: 'Bash', tool_input: { command }, tool_use_id: `toolu_${command}`, cwd: root }));
    expect(decision((await bash('rm -rf build')).stdout)).toBe('allow');
    expect(decision((await bash(': > README.md')).stdout)).toBe('deny');
    const ruled = journal.records.filter((record) => record.type === 'tool.ruled').map((record) => (record.payload as { class: string }).class);
    expect(ruled).toEqual(['edit', 'destructive']);
    const scopes = journal.records.filter((record) => record.type === 'tool.requested').map((record) => (record.payload as { scope: Record<string, unknown> }).scope);
    expect(scopes[0]).toMatchObject({ tracked: ['README.md', 'keep/a.txt'] });
    expect(scopes[1]).not.toHaveProperty('tracked');
    expect(scopes[1]).toMatchObject({ trackedDigest: expect.stringMatching(/^[0-9a-f]{64}$/) as unknown });
  });

  it('refuses malformed hook JSON (fail closed), says so on stderr, and journals tool.ruled refuse (unreadable request)', async () => {
    const { server, journal } = await gate();
    server.setCall(`${run}/3/0`);
    const out = await yokeGate(server.socketPath, '{not json');
    expect(decision(out.stdout)).toBe('deny');
    expect(out.stderr).toMatch(/^yoke gate: the hook's stdin is not JSON \(.*\); the call is refused \(fail closed\)\.$/m);
    const ruled = journal.records.find((record) => record.type === 'tool.ruled');
    expect(ruled?.payload).toMatchObject({ ruling: 'refuse', class: null, source: { kind: 'unreadable' } });
    expect(journal.records.find((record) => record.type === 'tool.requested')?.payload).toMatchObject({ tool: null, unreadable: '{not json' });
  });

  it('refuses every call when no agent call is in progress, and a held call is remembered for the call', async () => {
    const { server } = await gate();
    const out = await yokeGate(server.socketPath, JSON.stringify({ tool_name: 'Bash', tool_input: { command: 'ls' } }));
    expect(decision(out.stdout)).toBe('deny');
    server.setCall(`${run}/5/0`);
    const held = await yokeGate(server.socketPath, JSON.stringify({ tool_name: 'Bash', tool_input: { command: 'curl http://127.0.0.1:9/' }, tool_use_id: 'toolu_9' }));
    expect(decision(held.stdout)).toBe('defer');
    expect(server.heldInCall()).toHaveLength(1);
  });

  it('fails closed when the socket is missing', async () => {
    const out = await yokeGate(join(tmpdir(), 'no-such-yoke-gate.sock'), JSON.stringify({ tool_name: 'Bash', tool_input: { command: 'ls' } }));
    expect(decision(out.stdout)).toBe('deny');
    expect(out.stderr).toContain('fail closed');
  });

  it('refuses a socket others can open, or one another user owns, without asking it (fail closed)', async () => {
    const { server, journal } = await gate();
    server.setCall(`${run}/3/0`);
    const ls = JSON.stringify({ tool_name: 'Bash', tool_input: { command: 'ls' }, tool_use_id: 'toolu_ls' });
    chmodSync(server.socketPath, 0o666);
    const open = await yokeGate(server.socketPath, ls);
    expect(decision(open.stdout)).toBe('deny');
    expect(open.stderr).toContain('is open to other users (mode 666)');
    chmodSync(server.socketPath, 0o600);
    if (process.getuid?.() === 0) {
      chownSync(server.socketPath, 65534, 65534);
      const foreign = await yokeGate(server.socketPath, ls);
      expect(decision(foreign.stdout)).toBe('deny');
      expect(foreign.stderr).toContain('belongs to another user');
      chownSync(server.socketPath, 0, 0);
    }
    expect(journal.records, 'the gate never asked the run').toEqual([]);
  });

  describe('an operator answer to the live run (`yoke answer` over the socket, with the run\'s token)', () => {
    const curl = JSON.stringify({ tool_name: 'Bash', tool_input: { command: 'curl http://127.0.0.1:9/' }, tool_use_id: 'toolu_9' });

    async function heldGate(token: string | null): Promise<{ server: GateServer; journal: JournalWriter; loopDir: string; id: string }> {
      const opened = await gate(token);
      const loop = LIFECYCLES.loop!;
      opened.journal.stage({ run, machine: loop.name, mv: loop.version, type: 'run.started', payload: { mode: 'loop', input: memoryLoopInput([]), argv: ['run'] } });
      opened.server.setCall(`${run}/5/0`);
      expect(decision((await yokeGate(opened.server.socketPath, curl)).stdout)).toBe('defer');
      const id = (opened.journal.records.find((record) => record.type === 'tool.requested')!.payload as { id: string }).id;
      const loopDir = join(opened.root, '.loop');
      writeGatePointer(join(loopDir, '.journal', 'gate.json'), run, opened.server.socketPath, token ?? 'a-token-the-run-does-not-take');
      return { ...opened, loopDir, id };
    }

    it('is journaled by the run; the hold no longer counts as unanswered for the call', async () => {
      const { server, journal, loopDir, id } = await heldGate('t0ken');
      const told = await tellLiveRun(loopDir, { kind: 'answer', id, ruling: 'pass', scope: 'call', why: 'loopback is fine' });
      expect(told).toMatchObject({ told: true, run, payload: { id, ruling: 'pass', scope: 'call', answer: `${id}-a1`, why: 'loopback is fine' } });
      expect(journal.records.at(-1)).toMatchObject({ type: 'tool.answered', run, payload: { id, ruling: 'pass' } });
      expect(server.heldInCall()).toEqual([]);
      expect(server.heldInCall(true)).toEqual([id]);
      // asked again, the same call is ruled by the answer
      const again = await yokeGate(server.socketPath, curl);
      expect(decision(again.stdout)).toBe('allow');
    });

    it('refuses a message without the run\'s token, and journals nothing', async () => {
      const { journal, loopDir, id } = await heldGate(null);
      const before = journal.records.length;
      await expect(tellLiveRun(loopDir, { kind: 'answer', id, ruling: 'pass', scope: 'call', why: null })).rejects.toThrow("does not carry the run's token");
      expect(journal.records).toHaveLength(before);
    });

    it('gives the run\'s reason for an unknown or answered id, and for a scope the class does not take', async () => {
      const { journal, loopDir, id } = await heldGate('t0ken');
      await expect(tellLiveRun(loopDir, { kind: 'answer', id: 'nope', ruling: 'pass', scope: 'call', why: null })).rejects.toThrow('there is no held tool call nope');
      await tellLiveRun(loopDir, { kind: 'answer', id, ruling: 'refuse', scope: 'run', why: null });
      await expect(tellLiveRun(loopDir, { kind: 'answer', id, ruling: 'pass', scope: 'call', why: null })).rejects.toThrow('was already answered');
      const answer = (journal.records.at(-1)!.payload as { answer: string }).answer;
      const revoked = await tellLiveRun(loopDir, { kind: 'revoke', answer });
      expect(revoked.told).toBe(true);
      expect(journal.records.at(-1)).toMatchObject({ type: 'tool.revoked', payload: { answer } });
    });

    it('is not told when no live yoke left a pointer', async () => {
      const { root } = await gate('t0ken');
      expect(await tellLiveRun(join(root, '.loop'), { kind: 'revoke', answer: 'x' })).toEqual({ told: false });
    });
  });
});
