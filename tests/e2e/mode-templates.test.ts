// `yoke init <mode>` for every mode writes a workspace that `yoke config check` accepts (built CLI).
import { afterAll, describe, expect, it } from 'vitest';
import { makeStashWorkspace, yokeJson } from '../support/stash-workspace.js';
import type { Workspace } from '../support/workspace.js';
import { LIFECYCLE_REGISTRY } from '../../machines/lifecycles/registry.js';

const workspaces: Workspace[] = [];
afterAll(async () => {
  await Promise.all(workspaces.map((ws) => ws.cleanup()));
});

describe('yoke init <mode>', () => {
  it.each(LIFECYCLE_REGISTRY.map((lifecycle) => lifecycle.name))('%s: writes its templates and the result passes `yoke config check` with no issue', async (mode) => {
    const ws = await makeStashWorkspace();
    workspaces.push(ws);
    const init = await yokeJson<{ mode: string; written: string[] }>(ws, ['init', mode]);
    expect(init.mode).toBe(mode);
    expect(init.written).toContain('.loop/yoke.conf');
    const check = await yokeJson<{ valid: boolean; issues: unknown[]; config: { mode: string } }>(ws, ['config', 'check']);
    expect(check).toMatchObject({ valid: true, issues: [], config: { mode } });
  }, 30_000);
});
