// One usage calculation (issue 11): a call that reported 1M input tokens and no cost, with
// `price m 2 8`, costs $2 on every surface a user can look at — the budgets (the hold and
// `yoke budget`), `yoke usage`, `yoke status`, the live status line, `yoke replay` (text and
// --json) and the HTML page. Before, replay alone said "cost unknown".
import { execa } from 'execa';
import { readFile } from 'node:fs/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { makeJudgedWorkspace } from '../support/judged-workspace.js';
import { runYoke, type Workspace } from '../support/workspace.js';
import { yokeBin } from '../support/yoke-process.js';

const workspaces: Workspace[] = [];
afterAll(async () => {
  if (process.env.KEEP_E2E === '1') return;
  await Promise.all(workspaces.splice(0).map((ws) => ws.cleanup()));
});

/** `yoke run` on a pty (util-linux `script`), so the live status line is drawn. */
async function runOnTerminal(ws: Workspace): Promise<{ exitCode: number | undefined; raw: string }> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined && !key.startsWith('YOKE_') && key !== 'FORCE_COLOR') env[key] = value;
  const command = `stty cols 200 rows 40 2>/dev/null; exec '${process.execPath}' '${yokeBin}' run`;
  const result = await execa('script', ['-qefc', command, '/dev/null'], { cwd: ws.path, env: { ...env, NO_COLOR: '1' }, reject: false, timeout: 40_000, input: '' });
  return { exitCode: result.exitCode, raw: result.stdout };
}

async function json<T>(ws: Workspace, args: string[]): Promise<T> {
  const result = await runYoke(ws, args);
  expect(result.exitCode, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as T;
}

describe('one usage calculation', () => {
  it('a priced call costs $2 in the budgets, usage, status, the live line, replay and the HTML page', async () => {
    const { ws } = await makeJudgedWorkspace({
      mode: 'loop',
      conf: ['max-iterations 3', 'price m 2 8', 'budget cost-usd 1', 'commit off'],
      script: { worker: [[{ usage: { input_tokens: 1_000_000, output_tokens: 0, model: 'm' } }, { notes: 'IN_PROGRESS' }]] },
    });
    workspaces.push(ws);

    // The budgets: the first call spent $2, so call admission holds the second one.
    const { exitCode, raw } = await runOnTerminal(ws);
    expect(exitCode, raw).toBe(1);
    expect(raw).toMatch(/held by its cost-usd budget: 2 of 1 spent/);
    // The live line, drawn once the call had ended.
    // eslint-disable-next-line no-control-regex -- terminal escape sequences are the point
    const drawn = [...raw.matchAll(/\r\x1b\[2K(yoke · [^\r\n\x1b]*)/g)].map((match) => match[1] as string);
    expect(drawn.some((line) => line.includes('$2.00') && !line.includes('$2.00+')), drawn.join('\n')).toBe(true);

    const budget = await json<{ budgets: Array<{ dimension: string; spent: number }> }>(ws, ['budget', '--json']);
    expect(budget.budgets.find((line) => line.dimension === 'cost-usd')?.spent).toBe(2);

    const usage = await json<{ total: { costUsd: number | null; knownCostUsd: number } }>(ws, ['usage', '--json']);
    expect(usage.total).toMatchObject({ costUsd: 2, knownCostUsd: 2 });

    const status = await json<{ usage: { costUsd: number | null } }>(ws, ['status', '--json']);
    expect(status.usage.costUsd).toBe(2);
    expect((await runYoke(ws, ['status'])).stdout).toContain('$2.00');

    const replay = await runYoke(ws, ['replay']);
    expect(replay.stdout).not.toContain('cost unknown');
    expect(replay.stdout).toMatch(/outcome: .*\$2\.00/);
    const steps = (await runYoke(ws, ['replay', '--json'])).stdout.trim().split('\n').map((line) => JSON.parse(line) as { kind?: string; costUsd?: number; usage?: { costUsd: number | null } | null });
    expect(steps.find((step) => step.kind === 'outcome')?.costUsd).toBe(2);
    expect(steps.find((step) => step.usage)?.usage?.costUsd).toBe(2);

    const page = ws.side('replay.html');
    expect((await runYoke(ws, ['replay', '--html', page])).exitCode).toBe(0);
    expect(await readFile(page, 'utf8')).toContain('$2.0000');
  });
});
