// DESIGN §13: `yoke init` writes the strongest tool-control setting its agent supports; the gate
// reaches every built-in agent (claude, codex, gemini and qwen through their hooks, opencode through
// yoke's plugin), so that is the default, on, and the file checks clean. (The refusal of an agent the
// gate would not reach: tests/config/tool-gate-reach.test.ts.)
import { afterAll, describe, expect, it } from 'vitest';
import { BUILT_IN_AGENT_KINDS } from '../../config/types.js';
import { makeWorkspace, runYoke, type Workspace } from '../support/workspace.js';

const workspaces: Workspace[] = [];
afterAll(async () => {
  await Promise.all(workspaces.splice(0).map((ws) => ws.cleanup()));
});

describe('tool control for every built-in agent', () => {
  it.each([...BUILT_IN_AGENT_KINDS])('`yoke init loop --agent %s` writes no tool-control line (the default, on, is enforced) and the file checks clean', async (agent) => {
    const ws = await makeWorkspace({ 'README.md': 'x\n' });
    workspaces.push(ws);
    const init = await runYoke(ws, ['init', 'loop', '--agent', agent]);
    expect(init.exitCode, init.stderr).toBe(0);
    expect(await ws.read('.loop/yoke.conf')).not.toMatch(/^tool-control/m);
    const check = await runYoke(ws, ['config', 'check', '--json']);
    expect((JSON.parse(check.stdout) as { issues: unknown[] }).issues).toEqual([]);
  });
});
