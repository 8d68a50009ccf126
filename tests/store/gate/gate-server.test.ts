// The run's gate server with the built `yoke gate` (DESIGN §13): yoke journals every question as
// tool.requested + tool.ruled; malformed hook JSON is refused and journaled as unreadable (fail
// closed); the socket is private (0600 in a 0700 directory); with no agent call in progress every
// question is refused.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openGateServer, type GateServer } from '../../../store/gate/gate-server.js';
import { openFileJournal } from '../../../store/journal/file/open-file-journal.js';
import type { JournalWriter } from '../../../store/journal/journal-writer.js';
import { yokeBin } from '../../support/yoke-process.js';

const run = '01GATETESTRVN0000000000000';
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function gate(): Promise<{ server: GateServer; journal: JournalWriter; root: string }> {
  const root = mkdtempSync(join(tmpdir(), 'yoke-gate-test-'));
  cleanups.push(() => rmSync(root, { recursive: true, force: true }));
  const journal = await openFileJournal(join(root, 'journal.jsonl'));
  cleanups.push(() => journal.close());
  const server = await openGateServer({
    run, root, home: null,
    config: { allow: [], noModify: ['src/'], toolRules: undefined, toolControl: 'on' },
    stage: (draft) => journal.stage({ ...draft, run, machine: 'loop', mv: 1 } as Parameters<JournalWriter['stage']>[0]),
    flush: () => journal.flush(),
    records: () => journal.records,
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

  it('refuses malformed hook JSON (fail closed), says so on stderr, and journals tool.ruled refuse (unreadable request)', async () => {
    const { server, journal } = await gate();
    server.setCall(`${run}/3/0`);
    const out = await yokeGate(server.socketPath, '{not json');
    expect(decision(out.stdout)).toBe('deny');
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
});
