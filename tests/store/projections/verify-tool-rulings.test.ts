// `yoke replay --verify` for tool rulings (DESIGN §13): the records a real gate server journals for
// the built `yoke gate` verify (each ruling re-derived from its request, the answers before it and
// the run's config); a tampered ruling, a tampered request scope, a missing answer or a ruling with
// no request diverge at that record with both sides.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openGateServer } from '../../../store/gate/gate-server.js';
import { openFileJournal } from '../../../store/journal/file/open-file-journal.js';
import type { JournalWriter } from '../../../store/journal/journal-writer.js';
import type { JournalRecord } from '../../../store/journal/record.js';
import { rederiveRuling, ToolRulingChecker, type RulingConfig } from '../../../store/projections/verify-tool-rulings.js';
import type { RulingRun } from '../../../store/projections/verify-tool-scope.js';
import type { Divergence } from '../../../store/projections/verify-run.js';
import type { ExecutedToolCall } from '../../../machines/effects.js';
import { laneWorktreeDir } from '../../../config/lane-worktree-path.js';
import { yokeBin } from '../../support/yoke-process.js';

const run = '01GATEVERIFYRVN00000000000';
const config: RulingConfig = { toolRules: undefined, toolControl: 'on' };
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function yokeGate(socket: string, stdin: unknown): Promise<string> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [yokeBin, 'gate', '--agent', 'claude'], { env: { ...process.env, YOKE_GATE_SOCKET: socket } });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => { stdout += chunk.toString(); });
    child.on('exit', () => resolve(stdout));
    child.stdin.end(JSON.stringify(stdin));
  });
}

/** A real gate's journal: a held curl, a refused write under no-modify, the operator's pass, the curl asked again. */
async function gatedJournal(): Promise<JournalRecord[]> {
  const root = mkdtempSync(join(tmpdir(), 'yoke-verify-tools-'));
  cleanups.push(() => rmSync(root, { recursive: true, force: true }));
  const journal = await openFileJournal(join(root, 'journal.jsonl'));
  cleanups.push(() => journal.close());
  const stage = (draft: Omit<Parameters<JournalWriter['stage']>[0], 'run' | 'machine' | 'mv'>) => journal.stage({ ...draft, run, machine: 'loop', mv: 1 } as Parameters<JournalWriter['stage']>[0]);
  const server = await openGateServer({ run, root, home: null, config: { allow: [], noModify: ['src/'], ...config }, protect: () => [], tracked: () => Promise.resolve(['README.md', 'keep/a.txt']), stage, stageOperator: (draft) => journal.stage(draft), flush: () => journal.flush(), records: () => journal.records, token: null });
  cleanups.push(() => server.close());
  server.setCall(`${run}/3/0`);
  const curl = { tool_name: 'Bash', tool_input: { command: 'curl http://127.0.0.1:9/' }, tool_use_id: 'toolu_c', cwd: root };
  await yokeGate(server.socketPath, curl);
  await yokeGate(server.socketPath, { tool_name: 'Write', tool_input: { file_path: join(root, 'src/a.txt'), content: 'x' }, tool_use_id: 'toolu_w', cwd: root });
  const held = journal.records.find((record) => record.type === 'tool.requested')!.payload as { id: string; callId: string };
  stage({ type: 'tool.answered', payload: { answer: `${held.id}-a1`, id: held.id, callId: held.callId, tool: 'Bash', class: 'network', ruling: 'pass', scope: 'call', why: null } });
  await journal.flush();
  server.setCall(`${run}/3/1`);
  await yokeGate(server.socketPath, curl);
  return [...journal.records];
}

/** What the test run gave its gate: the config of gatedJournal, no known root unless given. */
const gateRun = (over: Partial<RulingRun> = {}): RulingRun => ({ config: { ...config, allow: [], noModify: ['src/'] }, proof: false, loopDir: null, specFiles: ['plan.md'], protect: [], ...over });

/** Every divergence the checker finds, observing each record after checking it (as replay-verify does). */
function check(records: readonly JournalRecord[], over: Partial<RulingRun> = {}): { divergences: Divergence[]; verified: number } {
  const checker = new ToolRulingChecker();
  const divergences: Divergence[] = [];
  for (const record of records) {
    const found = checker.check(record, gateRun(over));
    if (found) divergences.push(found);
    checker.observe(record);
  }
  return { divergences, verified: checker.verified.get(run) ?? 0 };
}

/** `records` with claude agent call `key` started first and completed last, its result naming `toolCalls` (absent: none journaled). */
function withAgentCall(records: readonly JournalRecord[], key: string, toolCalls?: ExecutedToolCall[]): JournalRecord[] {
  const envelope = records[0]!;
  const last = records.at(-1)!.seq;
  const started = { ...envelope, seq: 0, type: 'effect.started', payload: { key, kind: 'agent.spawn', params: { agent: { kind: 'claude' } }, attempt: 1 } } as JournalRecord;
  const result = { outcome: 'exited', classification: 'ok', ...(toolCalls === undefined ? {} : { toolCalls }) };
  const completed = { ...envelope, seq: last + 1, type: 'effect.completed', payload: { key, kind: 'agent.spawn', result } } as JournalRecord;
  return [started, ...records, completed];
}

const ran = (callId: string, summary: string): ExecutedToolCall => ({ tool: summary.split(' ')[0]!, match: { by: 'callId', callId }, summary });

const copy = (records: readonly JournalRecord[]): JournalRecord[] => JSON.parse(JSON.stringify(records)) as JournalRecord[];
const ruledAt = (records: readonly JournalRecord[], index: number): JournalRecord => records.filter((record) => record.type === 'tool.ruled')[index]!;

describe('verifying tool rulings', { timeout: 60_000 }, () => {
  it('a real gate\'s journal verifies: hold, refuse, and the pass the operator\'s answer gave', async () => {
    const records = await gatedJournal();
    expect(records.filter((record) => record.type === 'tool.ruled').map((record) => (record.payload as { ruling: string }).ruling)).toEqual(['hold', 'refuse', 'pass']);
    expect(check(records)).toEqual({ divergences: [], verified: 3 });
  });

  it('a ruling tampered from hold to pass diverges at it, with both sides', async () => {
    const records = copy(await gatedJournal());
    const held = ruledAt(records, 0);
    (held.payload as { ruling: string }).ruling = 'pass';
    expect(check(records).divergences[0]).toMatchObject({ seq: held.seq, record: 'tool.ruled', path: 'ruling', journal: 'pass', machine: 'hold' });
  });

  it('a request whose journaled scope lost its no-modify rows diverges at the request, before its ruling', async () => {
    const records = copy(await gatedJournal());
    const write = records.filter((record) => record.type === 'tool.requested')[1]!;
    (write.payload as { scope: { noModify: string[] } }).scope.noModify = [];
    expect(check(records).divergences[0]).toMatchObject({ seq: write.seq, record: 'tool.requested', path: 'scope.noModify', journal: [], machine: ['src/'] });
  });

  it('a request whose scope lost its no-modify rows, its ruling re-derived to match, still diverges at the request: the scope is not the one the run gave the gate', async () => {
    const records = copy(await gatedJournal());
    const write = records.filter((record) => record.type === 'tool.requested')[1]!;
    (write.payload as { scope: { noModify: string[] } }).scope.noModify = [];
    const ruled = ruledAt(records, 1);
    ruled.payload = rederiveRuling(write, config, [], () => ['README.md', 'keep/a.txt']) as typeof ruled.payload;
    expect((ruled.payload as { ruling: string }).ruling, 'the tampered ruling agrees with the tampered scope').toBe('pass');
    expect(check(records).divergences[0]).toMatchObject({ seq: write.seq, record: 'tool.requested', path: 'scope.noModify', journal: [], machine: ['src/'] });
  });

  it('a request classified under another root, without the run\'s protect patterns, or without one of its spec files diverges at the request', async () => {
    const records = await gatedJournal();
    const [first] = records;
    const root = (first!.payload as { scope: { root: string } }).scope.root;
    expect(check(records, { loopDir: `${root}/.loop` }).divergences).toEqual([]);
    expect(check(records, { loopDir: '/elsewhere/.loop' }).divergences[0]).toMatchObject({ seq: first!.seq, path: 'scope.root', machine: '/elsewhere' });
    expect(check(records, { proof: true, protect: ['tests/'] }).divergences[0]).toMatchObject({ path: 'scope.protect', journal: [], machine: ['tests/'] });
    expect(check(records, { protect: ['tests/'] }).divergences, 'older runs journaled no protect patterns').toEqual([]);
    expect(check(records, { specFiles: ['plan.md', 'my-spec.md'] }).divergences[0]).toMatchObject({ path: 'scope.specFiles' });
  });

  it('a request of a parallel lane\'s agent call must be classified in that lane\'s worktree: one under the project root diverges at the request', async () => {
    const records = await gatedJournal();
    const root = (records[0]!.payload as { scope: { root: string } }).scope.root;
    // the same requests, now asked during an agent call of lane S1
    const inLane = withAgentCall(records, `${run}/3/0`);
    (inLane[0]!.payload as { params: Record<string, unknown> }).params.lane = 'S1';
    expect(check(inLane, { loopDir: `${root}/.loop` }).divergences[0]).toMatchObject({ seq: records[0]!.seq, path: 'scope.root', journal: root, machine: `${root}/.git/yoke/worktrees/S1` });
    expect(check(withAgentCall(records, `${run}/3/0`), { loopDir: `${root}/.loop` }).divergences).toEqual([]);
  });

  it('a lane call classified in that lane\'s worktree under the state home verifies whatever the state home was; one under the project root diverges, naming where the run makes lanes', async () => {
    const records = await gatedJournal();
    const root = (records[0]!.payload as { scope: { root: string } }).scope.root;
    const inLane = (): JournalRecord[] => {
      const lane = copy(withAgentCall(records, `${run}/3/0`));
      (lane[0]!.payload as { params: Record<string, unknown> }).params.lane = 'S1';
      return lane;
    };
    const elsewhere = inLane();
    const ofLane = (record: JournalRecord): record is Extract<JournalRecord, { type: 'tool.requested' }> => record.type === 'tool.requested' && record.payload.key === `${run}/3/0`;
    for (const record of elsewhere) if (ofLane(record)) (record.payload.scope as { root: string }).root = laneWorktreeDir('/another/machine/state', root, 'S1');
    const scoped = (found: Divergence[]) => found.filter((divergence) => divergence.path === 'scope.root');
    expect(scoped(check(elsewhere, { loopDir: `${root}/.loop`, lanesOutside: true }).divergences)).toEqual([]);
    expect(check(inLane(), { loopDir: `${root}/.loop`, lanesOutside: true }).divergences[0]).toMatchObject({ seq: records[0]!.seq, path: 'scope.root', journal: root, machine: laneWorktreeDir('$XDG_STATE_HOME', root, 'S1') });
    const otherLane = inLane();
    for (const record of otherLane) if (ofLane(record)) (record.payload.scope as { root: string }).root = laneWorktreeDir('/another/machine/state', root, 'S2');
    expect(check(otherLane, { loopDir: `${root}/.loop`, lanesOutside: true }).divergences[0], 'another lane\'s worktree').toMatchObject({ path: 'scope.root' });
  });

  it('a pass whose answer is not in the journal diverges: the call would have been held', async () => {
    const records = (await gatedJournal()).filter((record) => record.type !== 'tool.answered');
    expect(check(records).divergences[0]).toMatchObject({ seq: ruledAt(records, 2).seq, record: 'tool.ruled', path: 'ruling', journal: 'pass', machine: 'hold' });
  });

  it('an agent call whose CLI ran the calls the gate let through verifies; one that ran the refused write, or a call the gate never saw, diverges at its completion', async () => {
    const records = await gatedJournal();
    expect(check(withAgentCall(records, `${run}/3/1`, [ran('toolu_c', 'Bash curl http://127.0.0.1:9/')])).divergences).toEqual([]);
    const refusedRan = withAgentCall(records, `${run}/3/0`, [ran('toolu_w', 'Write src/a.txt')]);
    expect(check(refusedRan).divergences[0]).toMatchObject({ seq: refusedRan.at(-1)!.seq, record: 'effect.completed', key: `${run}/3/0`, path: 'toolCalls', what: expect.stringContaining('`Write src/a.txt`') as unknown });
    // the curl's pass belongs to the second agent call: in the first it was held, and did not run there
    expect(check(withAgentCall(records, `${run}/3/0`, [ran('toolu_c', 'Bash curl')])).divergences).toHaveLength(1);
    expect(check(withAgentCall(records, `${run}/3/1`, [ran('toolu_rm', 'Bash rm -rf keep')])).divergences[0]).toMatchObject({ path: 'toolCalls', journal: { match: { callId: 'toolu_rm' } } });
  });

  it('in a run that journals its agents\' tool calls, a gated agent call whose result names none diverges; older runs verify as they did', async () => {
    const records = withAgentCall(await gatedJournal(), `${run}/3/1`);
    expect(check(records, { proof: true }).divergences[0]).toMatchObject({ record: 'effect.completed', path: 'toolCalls', what: expect.stringContaining('does not journal the tool calls') as unknown });
    expect(check(records).divergences).toEqual([]);
  });

  it('the tracked-file list is journaled once per agent call and named by digest after; a request naming a list no earlier request journals diverges', async () => {
    const records = copy(await gatedJournal());
    const scopes = records.filter((record) => record.type === 'tool.requested').map((record) => (record.payload as { scope: { tracked?: string[]; trackedDigest?: string } }).scope);
    expect(scopes.map((scope) => [scope.tracked !== undefined, scope.trackedDigest !== undefined])).toEqual([[true, false], [false, true], [true, false]]);
    delete scopes[0]!.tracked;
    expect(check(records).divergences[0]).toMatchObject({ seq: ruledAt(records, 1).seq, record: 'tool.ruled', what: expect.stringContaining('tracked-file list') as unknown });
  });

  it('a ruling with no request before it diverges', async () => {
    const records = (await gatedJournal()).filter((record, index, all) => record !== all.find((r) => r.type === 'tool.requested'));
    expect(check(records).divergences[0]).toMatchObject({ record: 'tool.ruled', what: expect.stringContaining('never requested') as unknown });
  });
});
