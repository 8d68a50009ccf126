// Restart tests for the judged lifecycles and budgets: kill -9 (YOKE_FAILPOINT=crash-after:<seq>,
// seqs taken from an uncrashed reference run's journal), then `yoke run`. The run must end exactly
// like the reference: the consecutive-FAIL count (so the bailout comes at the same judge call), the
// chunk number, saga-log.md byte for byte, the hold decision and `yoke usage` totals; and no agent
// call whose completion was journaled runs again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callLabels, makeJudgedWorkspace, type JudgedSetup } from '../support/judged-workspace.js';
import { completedAgentKeys, seqOf } from '../support/journal-points.js';
import { type JournalRecord, readJournal } from '../support/journal-records.js';
import { type ShellAct, type ShellScript, shellCalls } from '../support/shell-agent.js';
import { type Workspace, runYoke } from '../support/workspace.js';

const TIMEOUT = 60_000;
const reports = (input: number, output: number, cost: number): ShellAct => ({ usage: { input_tokens: input, output_tokens: output, cost_usd: cost, model: 'fake-model' } });

/** What must come back exactly: files, agent calls, usage totals (durations aside), how the run ended. */
async function outcome(ws: Workspace, files: string[]): Promise<Record<string, unknown>> {
  const usage = JSON.parse((await runYoke(ws, ['usage', '--json'])).stdout) as { total: Record<string, unknown>; byRole: Record<string, Record<string, unknown>> };
  const sums = (t: Record<string, unknown> | undefined) => ({ calls: t?.calls, unknownCalls: t?.unknownCalls, inputTokens: t?.inputTokens, outputTokens: t?.outputTokens, costUsd: t?.costUsd });
  const records = await readJournal(ws);
  const ends = records.filter((r) => r.type === 'run.finished' || r.type === 'run.paused').map((r) => r.payload);
  const contents: Record<string, string | null> = {};
  for (const file of files) contents[file] = (await ws.exists(file)) ? (await ws.read(file)).replace(/\d+\.\d+s\b/g, 'N.Ns') : null;
  return {
    calls: await callLabels(ws),
    usage: { total: sums(usage.total), byRole: Object.fromEntries(Object.entries(usage.byRole).map(([role, t]) => [role, sums(t)])) },
    ends: ends.at(-1),
    files: contents,
  };
}

/** No agent call whose completion was journaled ran twice; every call the agent saw was started by yoke once. */
async function assertNoCallRanTwice(ws: Workspace): Promise<void> {
  const seen = (await shellCalls(ws.sideDir)).map((c) => c.call);
  expect(new Set(seen).size, seen.join(' ')).toBe(seen.length);
  for (const key of completedAgentKeys(await readJournal(ws))) expect(seen.filter((k) => k === key)).toHaveLength(1);
}

interface Scenario {
  setup: Omit<JudgedSetup, 'agent' | 'script'> & { script: ShellScript };
  files: string[];
  /** `yoke run` (which resumes after a crash) until the run is done or held, and whatever follows (e.g. raising a budget); returns yoke's stderr */
  finish: (ws: Workspace) => Promise<string>;
}

/** Reference run, then one crashed-and-resumed run per crash label; all must end alike. */
function restartSuite(name: string, scenario: Scenario, labels: Array<[string, number]>, extra?: (crashed: Workspace, stderr: string) => Promise<void> | void) {
  describe.concurrent(name, () => {
    let reference: Record<string, unknown>;
    let records: JournalRecord[];
    const cleanup: Workspace[] = [];

    beforeAll(async () => {
      const { ws } = await makeJudgedWorkspace({ ...scenario.setup, agent: 'shell' });
      cleanup.push(ws);
      await scenario.finish(ws);
      records = await readJournal(ws);
      reference = await outcome(ws, scenario.files);
      await assertNoCallRanTwice(ws);
    }, TIMEOUT);

    afterAll(async () => {
      if (process.env.KEEP_E2E !== '1') await Promise.all(cleanup.map((ws) => ws.cleanup()));
    });

    for (const [label, nth] of labels) {
      it(`kill -9 after ${label} #${nth}, then \`yoke run\`: the run ends exactly like the uncrashed one`, async () => {
        const { ws } = await makeJudgedWorkspace({ ...scenario.setup, agent: 'shell' });
        cleanup.push(ws);
        const seq = seqOf(records, label, nth);
        const killed = await runYoke(ws, ['run', '--quiet'], { env: { YOKE_FAILPOINT: `crash-after:${seq}` } });
        expect(killed.signal, `crash-after:${seq}`).toBe('SIGKILL');
        const stderr = await scenario.finish(ws);
        expect(stderr).toMatch(/resuming run/);
        expect(await outcome(ws, scenario.files)).toEqual(reference);
        await assertNoCallRanTwice(ws);
        await extra?.(ws, stderr);
      }, TIMEOUT);
    }
  });
}

// ---- brute: between a judge FAIL and the next worker call ------------------------------------------

restartSuite('restart: brute, between a judge FAIL and the next worker call', {
  setup: {
    mode: 'brute',
    conf: ['max-iterations 6', 'max-judge-failures 2', 'commit off', 'guard ok true'],
    script: {
      after: {
        worker: [reports(100, 20, 0.1), { notes: 'DONE' }],
        judge: [reports(10, 5, 0.01), { sh: 'printf "VERDICT: FAIL\\njudgment %s\\n" "$N" > .loop/verdict.md' }],
      },
    },
  },
  files: ['.loop/notes.md', '.loop/verdict.md', '.loop/guard-results.md'],
  finish: async (ws) => {
    const result = await runYoke(ws, ['run']);
    expect(result.exitCode, result.stderr).toBe(1);
    return result.stderr;
  },
// (A crash point is a flush: the records staged since the last one, the next `effect.started`
// included. The first verdict.md look is the stamp taken before the judge call; the second is the
// verdict. The last flush before the next worker call is the one with NOTES_RESET; a later seq
// lands after the worker's `effect.started`, i.e. in an agent call, which resumes as interrupted.)
}, [['event FILE_INSPECTED:verdict.md', 2], ['event NOTES_RESET:notes.md', 1]], (_ws, stderr) => {
  // the FAIL count came back: the second FAIL is the second of two, and it bails out
  expect(stderr).toMatch(/judge says FAIL, 2 of 2 consecutive/);
  expect(stderr).toMatch(/the judge said FAIL 2 times in a row/);
});

// ---- saga: between chunks ---------------------------------------------------------------------------

const scope = (n: number): ShellAct => ({ write: { '.loop/sub-plan.md': `# Chunk ${n}\n\nPart ${n}.\n`, '.loop/saga-notes.md': `STATUS: IN_PROGRESS\nscoped ${n}\n` } });
restartSuite('restart: saga, between chunks', {
  setup: {
    mode: 'saga',
    conf: ['max-chunks 5', 'max-iterations 2', 'max-judge-failures 1'],
    script: {
      scoper: [[reports(5, 5, 0.001), scope(1)], [reports(5, 5, 0.001), scope(2)], [reports(5, 5, 0.001), { write: { '.loop/saga-notes.md': 'STATUS: DONE\n' } }]],
      after: { worker: [reports(100, 20, 0.1), { notes: 'DONE' }], judge: [reports(10, 5, 0.01), { write: { '.loop/verdict.md': 'VERDICT: PASS\nok\n' } }] },
    },
  },
  files: ['.loop/saga-log.md', '.loop/notes.md', '.loop/sub-plan.md', '.loop/saga-notes.md'],
  finish: async (ws) => {
    const result = await runYoke(ws, ['run']);
    expect(result.exitCode, result.stderr).toBe(0);
    return result.stderr;
  },
}, [['event FILE_READ:notes.md', 1], ['event FILE_WRITTEN:saga-log.md', 1]], (_ws, stderr) => {
  expect(stderr).toMatch(/saga done after 2 chunk\(s\)/);
});

// ---- budgets: after an agent call completed, before the next admission ------------------------------

restartSuite('restart: budgets, between a completed agent call and the next admission', {
  setup: {
    mode: 'loop',
    conf: ['max-iterations 10', 'budget tokens 250'],
    script: { worker: [], after: { worker: [reports(60, 40, 0.05), { notes: 'IN_PROGRESS' }] } },
  },
  files: ['.loop/notes.md'],
  finish: async (ws) => {
    // held at the same call, then raised and held again at the same call
    const held = await runYoke(ws, ['run']);
    expect(held.exitCode, held.stderr).toBe(1);
    expect(held.stderr).toMatch(/held by its tokens budget: 300 of 250 spent/);
    expect((await runYoke(ws, ['budget', '--tokens', '450'])).exitCode).toBe(0);
    const again = await runYoke(ws, ['run']);
    expect(again.exitCode, again.stderr).toBe(1);
    expect(again.stderr).toMatch(/held by its tokens budget: 500 of 450 spent/);
    return held.stderr;
  },
}, [['event AGENT_EXITED:worker', 3]]);
