// Installed dependencies in parallel lanes (DESIGN §10, docs/parallel.md#where-lanes-work) against the
// bundle, with a scripted `cmd` agent. A lane's worktree is under the state home, outside the project,
// so Node no longer finds the project's node_modules by walking up: a guard that needs it failed in
// every lane, and no story could land. Each lane now gets links to the main tree's git-ignored
// dependency folders, which git never sees and removing the lane never follows.
import { chmod, lstat, readFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { laneWorktree, makeParallelWorkspace } from '../support/parallel-workspace.js';
import { readJournal } from '../support/journal-records.js';
import { runYoke, type Workspace } from '../support/workspace.js';

const TIMEOUT = 180_000;
const RUN_MS = TIMEOUT - 20_000;
const workspaces: Workspace[] = [];
afterEach(async () => {
  for (const ws of workspaces.splice(0)) await ws.cleanup();
});

describe('dependencies in parallel lanes', () => {
  it('guards that need the project\'s git-ignored node_modules and .venv pass in every lane: both stories land, no candidate carries the links, and the main tree\'s folders outlive the lanes', async () => {
    const ws = await makeParallelWorkspace(['S1', 'S2']);
    workspaces.push(ws);
    await ws.write('.gitignore', 'node_modules/\n.venv/\n');
    const conf = await ws.read('.loop/yoke.conf');
    await ws.write('.loop/yoke.conf', `${conf}guard deps node -e "process.exit(require('yoke-e2e-dep') === 42 ? 0 : 1)"\nguard venv .venv/bin/ok\n`);
    await ws.git(['add', '-A']);
    await ws.git(['commit', '-q', '-m', 'guards that need installed dependencies']);
    // installed, not tracked
    await ws.write('node_modules/yoke-e2e-dep/index.js', 'module.exports = 42;\n');
    await ws.write('.venv/bin/ok', '#!/bin/sh\nexit 0\n');
    await chmod(ws.abs('.venv/bin/ok'), 0o755);

    const result = await runYoke(ws, ['run', '--parallel', '2'], { timeoutMs: RUN_MS });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).not.toMatch(/link/);
    const records = await readJournal(ws);
    // the `deps` and `venv` guards passed in each lane's worktree (its turn's, then the integration lane's on the rebased candidate there)
    type Started = { key: string; kind: string; params: { lane?: string; name?: string } };
    const inLanes = records.filter((r) => r.type === 'effect.started').map((r) => r.payload as Started)
      .filter((p) => p.kind === 'check.run' && (p.params.name === 'deps' || p.params.name === 'venv') && p.params.lane !== undefined);
    expect(new Set(inLanes.map((p) => `${p.params.lane} ${p.params.name}`))).toEqual(new Set(['S1 deps', 'S1 venv', 'S2 deps', 'S2 venv']));
    const exits = records.filter((r) => r.type === 'effect.completed').map((r) => r.payload as { key: string; result: { exitCode: number | null } })
      .filter((c) => inLanes.some((p) => p.key === c.key)).map((c) => c.result.exitCode);
    expect(exits.length).toBeGreaterThanOrEqual(4);
    expect(exits.every((code) => code === 0), String(exits)).toBe(true);

    const feats = (await ws.gitLog()).filter((entry) => entry.subject.startsWith('feat('));
    expect(feats.map((entry) => entry.subject).sort()).toEqual(['feat(S1): Story S1', 'feat(S2): Story S2']);
    for (const entry of feats) expect(await ws.git(['show', '--name-only', '--format=', entry.sha])).not.toMatch(/node_modules|\.venv/);
    expect(await ws.git(['status', '--porcelain'])).toBe('');
    expect(await readFile(ws.abs('.git/info/exclude'), 'utf8')).toMatch(/^\/node_modules\n\/\.venv\n$/m);
    // the lanes are gone, and with them only their links
    await expect(lstat(laneWorktree(ws, 'S1'))).rejects.toThrow();
    expect(await ws.read('node_modules/yoke-e2e-dep/index.js')).toBe('module.exports = 42;\n');
    expect(await ws.read('.venv/bin/ok')).toBe('#!/bin/sh\nexit 0\n');
    const verify = await runYoke(ws, ['replay', '--verify']);
    expect(verify.exitCode, verify.stdout + verify.stderr).toBe(0);
  }, TIMEOUT);
});
