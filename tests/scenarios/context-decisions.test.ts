// DESIGN §9, decision entries end to end: the built CLI in real temp git repos with the shell agent.
// With `.yoke/context/`, the commit of a succeeded loop/brute run and of each judged saga chunk
// carries its DECISIONS.md entry (dated by the journaled clock); `replay --verify` re-derives it.
// Without the folder, nothing about the run changes and no `.yoke/` appears.
import { afterAll, describe, expect, it } from 'vitest';
import { utcDate } from '../../machines/context/decision-entry.js';
import { makeJudgedWorkspace } from '../support/judged-workspace.js';
import { readJournal } from '../support/journal-records.js';
import type { ShellAct, ShellScript } from '../support/shell-agent.js';
import { type Workspace, runYoke } from '../support/workspace.js';

const TIMEOUT = 60_000;
const workspaces: Workspace[] = [];
afterAll(async () => {
  if (process.env.KEEP_E2E === '1') return;
  await Promise.all(workspaces.splice(0).map((ws) => ws.cleanup()));
});

const LEDGER = '# Decisions\n\nOne entry per accepted unit of work.\n';
const DONE_WITH_DECISION: ShellAct = { write: { '.loop/notes.md': 'STATUS: DONE\nwired the widget\nDecision: the widget speaks plain text\n' } };
const PASS: ShellAct = { write: { '.loop/verdict.md': 'VERDICT: PASS\ngood\n' } };

async function setup(mode: 'loop' | 'brute' | 'saga', script: ShellScript, files: Record<string, string>) {
  const made = await makeJudgedWorkspace({ mode, conf: ['max-iterations 2', 'max-chunks 2', 'commit done'], script, files });
  workspaces.push(made.ws);
  return made;
}

/** The journaled clock readings taken for decision entries, as UTC dates. */
async function decisionDates(ws: Workspace): Promise<string[]> {
  const records = await readJournal(ws);
  const keys = new Set(records.filter((r) => r.type === 'effect.started' && (r.payload as { kind: string; params: { purpose?: string } }).params.purpose?.includes('DECISIONS.md')).map((r) => (r.payload as { key: string }).key));
  return records.filter((r) => r.type === 'effect.completed' && keys.has((r.payload as { key: string }).key)).map((r) => utcDate((r.payload as { result: { now: number } }).result.now));
}

async function runId(ws: Workspace): Promise<string> {
  const started = (await readJournal(ws)).find((r) => r.type === 'run.started');
  return started?.run ?? '';
}

describe.concurrent('DESIGN §9: decision entries land in the same commit as the work', () => {
  it('loop: the done run commits its entry (run id, plan heading, the notes’ Decision: line) with the work; replay --verify passes', async () => {
    const { ws, env } = await setup('loop', { worker: [{ write: { 'src/widget.ts': 'export const w = 1;\n', ...DONE_WITH_DECISION.write } }] }, { '.yoke/context/DECISIONS.md': LEDGER });
    const result = await runYoke(ws, ['run'], { env });
    expect(result.exitCode, result.stderr).toBe(0);
    const [date] = await decisionDates(ws);
    const entry = `## ${date ?? '?'} — ${(await runId(ws)).slice(0, 8)}: Plan\nthe widget speaks plain text\n`;
    expect(await ws.read('.yoke/context/DECISIONS.md')).toBe(`${LEDGER}\n${entry}`);
    const files = await ws.git(['show', '--name-only', '--format=', 'HEAD']);
    expect(files.split('\n')).toEqual(expect.arrayContaining(['.yoke/context/DECISIONS.md', 'src/widget.ts']));
    expect(await ws.git(['status', '--porcelain', '--', '.yoke'])).toBe('');
    const verify = await runYoke(ws, ['replay', '--verify'], { env });
    expect(verify.exitCode, verify.stdout + verify.stderr).toBe(0);
  }, TIMEOUT);

  it('brute: the judged run’s entry falls back to the plan heading when the notes name no decision', async () => {
    const { ws, env } = await setup('brute', { worker: [{ notes: 'DONE' }], judge: [PASS] }, { '.yoke/context/KNOWLEDGE.md': '# Knowledge\n' });
    const result = await runYoke(ws, ['run'], { env });
    expect(result.exitCode, result.stderr).toBe(0);
    const [date] = await decisionDates(ws);
    expect(await ws.read('.yoke/context/DECISIONS.md')).toBe(`## ${date ?? '?'} — ${(await runId(ws)).slice(0, 8)}: Plan\nPlan\n`);
    expect(await ws.git(['show', '--name-only', '--format=', 'HEAD'])).toContain('.yoke/context/DECISIONS.md');
    expect((await runYoke(ws, ['replay', '--verify'], { env })).exitCode).toBe(0);
  }, TIMEOUT);

  it('saga: each judged chunk commits `chunk-N` with its sub-plan’s first line', async () => {
    const scope = (n: number): ShellAct => ({ write: { '.loop/sub-plan.md': `# Chunk ${n}: part ${n}\n\nDo part ${n}.\n`, '.loop/saga-notes.md': 'STATUS: IN_PROGRESS\n' } });
    const { ws, env } = await setup('saga', {
      scoper: [scope(1), scope(2), { write: { '.loop/saga-notes.md': 'STATUS: DONE\n' } }],
      worker: [{ write: { 'src/one.ts': '1\n', ...DONE_WITH_DECISION.write } }, { write: { 'src/two.ts': '2\n', '.loop/notes.md': 'STATUS: DONE\n' } }],
      after: { judge: PASS },
    }, { '.yoke/context/DECISIONS.md': LEDGER });
    const result = await runYoke(ws, ['run'], { env });
    expect(result.exitCode, result.stderr).toBe(0);
    const [one, two] = await decisionDates(ws);
    expect(await ws.read('.yoke/context/DECISIONS.md')).toBe(`${LEDGER}\n## ${one ?? '?'} — chunk-1: Chunk 1: part 1\nthe widget speaks plain text\n\n## ${two ?? '?'} — chunk-2: Chunk 2: part 2\nChunk 2: part 2\n`);
    const log = await ws.gitLog();
    expect(log.length).toBeGreaterThanOrEqual(3);
    expect((await runYoke(ws, ['replay', '--verify'], { env })).exitCode).toBe(0);
  }, TIMEOUT);

  it('without .yoke/context/: no clock read for a decision, no .yoke/ created', async () => {
    const { ws, env } = await setup('loop', { worker: [DONE_WITH_DECISION] }, {});
    const result = await runYoke(ws, ['run'], { env });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(await decisionDates(ws)).toEqual([]);
    expect(await ws.exists('.yoke')).toBe(false);
    const started = (await readJournal(ws)).find((r) => r.type === 'run.started');
    expect((started?.payload as { input: Record<string, unknown> }).input).not.toHaveProperty('contextLayer');
  }, TIMEOUT);
});
