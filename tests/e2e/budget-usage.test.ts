// Budgets and the usage ledger, end to end (DESIGN §3, §4, issue 3): the shell agent reports usage
// through $YOKE_USAGE_FILE; budgets are checked at call admission; a held run is unfinished until
// `yoke budget …` raises the ceiling; `yoke usage --json` totals what the agents reported.
import { afterAll, describe, expect, it } from 'vitest';
import { expectRefusal } from '../support/cli-expect.js';
import { callLabels, makeJudgedWorkspace, type JudgedSetup } from '../support/judged-workspace.js';
import { readJournal } from '../support/journal-records.js';
import type { ShellAct, ShellScript } from '../support/shell-agent.js';
import { type Workspace, runYoke } from '../support/workspace.js';

const TIMEOUT = 40_000;
const workspaces: Workspace[] = [];

async function setup(mode: JudgedSetup['mode'], conf: string[], script: ShellScript): Promise<Workspace> {
  const made = await makeJudgedWorkspace({ mode, conf, script });
  workspaces.push(made.ws);
  return made.ws;
}

// Tests run concurrently (vitest uses one worker on small machines; the time is spent waiting on
// processes), so workspaces are cleaned up once the file is done.
afterAll(async () => {
  if (process.env.KEEP_E2E === '1') return;
  await Promise.all(workspaces.splice(0).map((ws) => ws.cleanup()));
});

/** `yoke usage --json` as data. */
interface UsageTotals {
  calls: number;
  unknownCalls: number;
  inputTokens: number | null;
  outputTokens: number | null;
  costUsd: number | null;
  knownTokens: number;
  knownCostUsd: number;
}
interface UsageReport {
  total: UsageTotals;
  byRole: Record<string, UsageTotals>;
  calls: Array<{ role: string; status: string; usage: { inputTokens: number | null } | null }>;
}

async function usage(ws: Workspace): Promise<UsageReport> {
  const result = await runYoke(ws, ['usage', '--json']);
  expect(result.exitCode, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as UsageReport;
}

const reports = (input: number, output: number, cost: number): ShellAct => ({ usage: { input_tokens: input, output_tokens: output, cost_usd: cost, model: 'fake-model' } });
const lastRecord = async (ws: Workspace) => (await readJournal(ws)).at(-1);

describe.concurrent('budgets and usage', () => {
  it('a tokens ceiling holds the run at call admission until `yoke budget --tokens` raises it; then `yoke run` goes on to DONE', async () => {
    const ws = await setup('loop', ['max-iterations 10', 'budget tokens 250'], {
      worker: [[reports(60, 40, 0.05), { notes: 'IN_PROGRESS' }], [reports(60, 40, 0.05), { notes: 'IN_PROGRESS' }], [reports(60, 40, 0.05), { notes: 'IN_PROGRESS' }]],
      after: { worker: [reports(60, 40, 0.05), { notes: 'DONE' }] },
    });

    // 0, 100, 200 tokens spent before calls 1-3: admitted; 300 before call 4: held
    const held = await runYoke(ws, ['run', '--quiet']);
    expectRefusal(held, 1, /^yoke: run \w+ is held by its tokens budget: 300 of 250 spent; raise it with `yoke budget --tokens <value>` and run `yoke run` again/);
    expect(await callLabels(ws)).toEqual(['worker#1', 'worker#2', 'worker#3']);
    expect(await lastRecord(ws)).toMatchObject({ type: 'run.paused', payload: { reason: 'budget:tokens' } });
    // spent never exceeds the ceiling by more than the one call in flight
    expect((await usage(ws)).total.knownTokens).toBe(300);

    // `yoke status` says it is held, and by what
    const status = await runYoke(ws, ['status', '--json']);
    expect(JSON.parse(status.stdout)).toMatchObject({ status: 'unfinished', state: 'workerHold', lastStop: expect.stringMatching(/held: budget:tokens/) as unknown });
    expect((await runYoke(ws, ['status'])).stdout).toMatch(/held: budget:tokens/);

    // `yoke run` again refuses to spend: exit 1, no agent call
    const again = await runYoke(ws, ['run', '--quiet']);
    expectRefusal(again, 1, /held by its tokens budget: 300 of 250 spent/);
    expect(await callLabels(ws)).toHaveLength(3);
    expect(await lastRecord(ws)).toMatchObject({ type: 'run.paused' });

    // a malformed raise changes nothing
    const before = (await readJournal(ws)).length;
    expect((await runYoke(ws, ['budget', '--tokens', 'lots'])).exitCode).toBe(2);
    expect(await readJournal(ws)).toHaveLength(before);

    const raised = await runYoke(ws, ['budget', '--tokens', '1000']);
    expect(raised.exitCode, raised.stderr).toBe(0);
    expect(raised.stdout).toMatch(/tokens budget is now 1000/);
    const done = await runYoke(ws, ['run', '--quiet']);
    expect(done.exitCode, done.stderr).toBe(0);
    expect(await callLabels(ws)).toEqual(['worker#1', 'worker#2', 'worker#3', 'worker#4']);

    // the ledger's totals are exactly what the agent reported
    const report = await usage(ws);
    expect(report.byRole.worker).toMatchObject({ calls: 4, unknownCalls: 0, inputTokens: 240, outputTokens: 160, knownTokens: 400 });
    expect(report.byRole.worker?.costUsd).toBeCloseTo(0.2, 10);
    expect(report.total).toMatchObject({ calls: 4, inputTokens: 240, outputTokens: 160 });

    // nothing is unfinished now: `yoke budget` is a usage error
    const late = await runYoke(ws, ['budget', '--tokens', '5000']);
    expectRefusal(late, 2, /no unfinished run to raise a budget for/);
  }, TIMEOUT);

  it('a cost-usd ceiling counts the judge too; usage by role equals what each role reported', async () => {
    const ws = await setup('brute', ['max-iterations 10', 'max-judge-failures 10', 'budget cost-usd 0.25'], {
      after: {
        worker: [reports(100, 10, 0.1), { notes: 'DONE' }],
        judge: [reports(7, 3, 0.05), { write: { '.loop/verdict.md': 'VERDICT: FAIL\nnot yet\n' } }],
      },
    });

    // $0 → worker, $0.10 → judge, $0.15 → worker, $0.25 → the next judge call is refused
    const held = await runYoke(ws, ['run', '--quiet']);
    expectRefusal(held, 1, /held by its cost-usd budget: 0\.25 of 0\.25 spent; raise it with `yoke budget --cost-usd <value>`/);
    expect(await callLabels(ws)).toEqual(['worker#1', 'judge#1', 'worker#2']);
    expect(await lastRecord(ws)).toMatchObject({ type: 'run.paused', payload: { reason: 'budget:cost-usd' } });

    const report = await usage(ws);
    expect(report.byRole.worker).toMatchObject({ calls: 2, inputTokens: 200, outputTokens: 20 });
    expect(report.byRole.worker?.costUsd).toBeCloseTo(0.2, 10);
    expect(report.byRole.judge).toMatchObject({ calls: 1, inputTokens: 7, outputTokens: 3 });
    expect(report.byRole.judge?.costUsd).toBeCloseTo(0.05, 10);
    expect(report.total.costUsd).toBeCloseTo(0.25, 10);
  }, TIMEOUT);

  it('an attempts ceiling holds after N worker calls; an agent without a usage file counts as unknown (null), never 0', async () => {
    const ws = await setup('loop', ['max-iterations 10', 'budget attempts 2'], {
      // the second call writes no usage file
      worker: [[reports(60, 40, 0.05), { notes: 'IN_PROGRESS' }], { notes: 'IN_PROGRESS' }, [reports(60, 40, 0.05), { notes: 'IN_PROGRESS' }]],
    });

    const held = await runYoke(ws, ['run', '--quiet']);
    expectRefusal(held, 1, /held by its attempts budget: 2 of 2 spent; raise it with `yoke budget --attempts <value>`/);
    expect(await callLabels(ws)).toEqual(['worker#1', 'worker#2']);
    expect((await runYoke(ws, ['budget', '--attempts', '3'])).exitCode).toBe(0);
    const more = await runYoke(ws, ['run', '--quiet']);
    expectRefusal(more, 1, /held by its attempts budget: 3 of 3 spent/);
    expect(await callLabels(ws)).toEqual(['worker#1', 'worker#2', 'worker#3']);

    const report = await usage(ws);
    expect(report.calls.map((c) => c.usage)).toEqual([expect.objectContaining({ inputTokens: 60 }), null, expect.objectContaining({ inputTokens: 60 })]);
    expect(report.total).toMatchObject({ calls: 3, unknownCalls: 1, inputTokens: null, outputTokens: null, costUsd: null, knownTokens: 200 });
    expect(report.total.knownCostUsd).toBeCloseTo(0.1, 10);
    const text = await runYoke(ws, ['usage']);
    expect(text.stdout).toMatch(/unknown is never counted as zero/);
  }, TIMEOUT);

  it('`yoke budget` with no run at all is a usage error (exit 2) that changes nothing', async () => {
    const ws = await setup('loop', ['max-iterations 2'], {});
    const result = await runYoke(ws, ['budget', '--tokens', '100']);
    expectRefusal(result, 2, /no unfinished run to raise a budget for/);
    expect(await readJournal(ws)).toEqual([]);
  }, TIMEOUT);

  // BUG (reported): machines/work/work-context.ts budgetBreached() refuses a judge call once
  // `spent.attempts + 1 > budgets.attempts`, although a judge call spends no attempt: with
  // `budget attempts 1` the only attempt says DONE and the run is held instead of being judged.
  it('attempts: the judge of the last attempt is still called', async () => {
    const ws = await setup('brute', ['max-iterations 5', 'budget attempts 1'], {
      after: { worker: { notes: 'DONE' }, judge: { write: { '.loop/verdict.md': 'VERDICT: PASS\nok\n' } } },
    });

    const result = await runYoke(ws, ['run', '--quiet']);

    expect(await callLabels(ws)).toEqual(['worker#1', 'judge#1']);
    expect(result.exitCode, result.stderr).toBe(0);
  }, TIMEOUT);
});
