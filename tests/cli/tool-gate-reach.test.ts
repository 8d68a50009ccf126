// DESIGN §13: yoke refuses to run an agent its tool-call gate does not reach (opencode) with
// tool control on or advisory; `yoke config check` says so at the line; `yoke init` writes the
// strongest setting such an agent supports (`tool-control off`, with a comment), so a first run
// never stops on it.
import { existsSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { makeWorkspace, runYoke, type Workspace } from '../support/workspace.js';

const workspaces: Workspace[] = [];
afterAll(async () => {
  await Promise.all(workspaces.splice(0).map((ws) => ws.cleanup()));
});

async function project(conf: string[]): Promise<Workspace> {
  const ws = await makeWorkspace({
    '.loop/yoke.conf': `${['mode loop', ...conf].join('\n')}\n`,
    '.loop/plan.md': '# Plan\n',
    '.loop/protocol.md': '# Protocol\n',
    '.loop/.gitignore': '.journal/\n.stash/\n',
  });
  workspaces.push(ws);
  return ws;
}

describe('an agent the tool-call gate does not reach', () => {
  it.each([
    [['agent opencode'], 2, 'on', 'opencode'],
    [['agent claude', 'tool-control advisory', 'judge-agent opencode'], 3, 'advisory', 'opencode'],
    [['profile cheap tier light opencode', 'profile dear tier strong claude', 'agent dear'], 2, 'on', 'opencode'],
  ])('%j: `yoke run` refuses it (exit 2, nothing journaled) and `yoke config check` names the line', async (conf, line, setting, kind) => {
    const ws = await project(conf);
    const run = await runYoke(ws, ['run']);
    expect(run.exitCode, run.stderr).toBe(2);
    expect(run.stderr).toContain(`tool-control is ${setting}, but yoke's tool-call gate does not rule ${kind}'s tool calls in a run yet`);
    expect(run.stderr).toContain('write `tool-control off`');
    expect(existsSync(ws.abs('.loop/.journal/journal.jsonl')), 'nothing was journaled').toBe(false);
    const check = await runYoke(ws, ['config', 'check', '--json']);
    expect(check.exitCode).toBe(2);
    const report = JSON.parse(check.stdout) as { valid: boolean; issues: Array<{ line: number; severity: string; message: string }> };
    expect(report.valid).toBe(false);
    expect(report.issues).toContainEqual(expect.objectContaining({ line, severity: 'error', message: expect.stringContaining(`${kind}'s tool calls`) as unknown }));
  });

  it('runs with `tool-control off`: the check is quiet about it', async () => {
    const ws = await project(['agent opencode', 'tool-control off']);
    const check = await runYoke(ws, ['config', 'check', '--json']);
    const report = JSON.parse(check.stdout) as { issues: unknown[] };
    expect(report.issues).toEqual([]);
  });

  it.each(['opencode'])('`yoke init loop --agent %s` writes `tool-control off` with the reason, and the file checks clean', async (agent) => {
    const ws = await makeWorkspace({ 'README.md': 'x\n' });
    workspaces.push(ws);
    const init = await runYoke(ws, ['init', 'loop', '--agent', agent]);
    expect(init.exitCode, init.stderr).toBe(0);
    const conf = await ws.read('.loop/yoke.conf');
    expect(conf).toContain(`# yoke's tool-call gate does not rule ${agent}'s tool calls yet: ${agent}'s own permission rules apply (docs/tool-control.md)\ntool-control off\n`);
    const check = await runYoke(ws, ['config', 'check', '--json']);
    expect((JSON.parse(check.stdout) as { issues: unknown[] }).issues).toEqual([]);
  });

  it.each(['codex', 'qwen'])('`yoke init loop --agent %s` writes no tool-control line (the default, on, is enforced) and the file checks clean', async (agent) => {
    const ws = await makeWorkspace({ 'README.md': 'x\n' });
    workspaces.push(ws);
    expect((await runYoke(ws, ['init', 'loop', '--agent', agent])).exitCode).toBe(0);
    expect(await ws.read('.loop/yoke.conf')).not.toMatch(/^tool-control/m);
    const check = await runYoke(ws, ['config', 'check', '--json']);
    expect((JSON.parse(check.stdout) as { issues: unknown[] }).issues).toEqual([]);
  });
});
