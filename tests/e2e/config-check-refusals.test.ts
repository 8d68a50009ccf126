// `yoke config check` and `yoke run` against configs that used to pass the check and then fail at
// run time (issue 20): built CLI, real git; a refused config leaves the workspace as it was.
import { existsSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { journalPath } from '../support/journal-records.js';
import { snapshotTree } from '../support/tree-snapshot.js';
import { makeWorkspace, runYoke, type Workspace } from '../support/workspace.js';

const TIMEOUT = 30_000;
const workspaces: Workspace[] = [];
afterEach(async () => {
  await Promise.all(workspaces.splice(0).map((ws) => ws.cleanup()));
});

async function setup(conf: string, files: Record<string, string> = {}): Promise<Workspace> {
  const ws = await makeWorkspace({ ...files, '.loop/yoke.conf': conf, '.loop/plan.md': 'plan\n', '.loop/protocol.md': 'protocol\n', '.loop/.gitignore': '.journal/\n.stash/\n' });
  workspaces.push(ws);
  return ws;
}

describe('issue 20: config values that passed `config check` and then broke every run', () => {
  it('20.1 a timeout above 596h is refused by config check and by run, naming the maximum', async () => {
    const ws = await setup('mode loop\nagent cmd true\nidle-timeout 596h\nguard-timeout 1000h\nagent-timeout 597h\n');
    const before = await snapshotTree(ws.path);
    const check = await runYoke(ws, ['config', 'check']);
    expect(check.exitCode, check.stderr).toBe(2);
    expect(check.stderr).toContain('.loop/yoke.conf:4:15: error: `1000h` is longer than the maximum timeout of 596h (24 days 20 hours) (use 596h or less, or 0 to turn the timeout off)');
    expect(check.stderr).toContain('.loop/yoke.conf:5:15: error: `597h` is longer than the maximum timeout of 596h');
    expect(check.stderr).not.toContain(':3:');
    const run = await runYoke(ws, ['run']);
    expect(run.exitCode, run.stderr).toBe(2);
    expect(run.stderr).toContain('.loop/yoke.conf:4:15');
    expect(existsSync(journalPath(ws.path))).toBe(false);
    expect(await snapshotTree(ws.path)).toEqual(before);
  }, TIMEOUT);

  it('20.5 a NUL byte in a guard command is refused with file:line:column', async () => {
    const ws = await setup('mode loop\nagent cmd true\nguard tests npm\u0000test\n');
    const check = await runYoke(ws, ['config', 'check', '--json']);
    expect(check.exitCode).toBe(2);
    const report = JSON.parse(check.stdout) as { valid: boolean; issues: Array<{ line: number; column: number; message: string; severity: string }> };
    expect(report.valid).toBe(false);
    expect(report.issues).toEqual([expect.objectContaining({ line: 3, column: 16, severity: 'error', message: 'this line contains a NUL byte (\\0)' })]);
    const text = await runYoke(ws, ['config', 'check']);
    expect(text.stderr).toContain('.loop/yoke.conf:3:16: error: this line contains a NUL byte (\\0)');
  }, TIMEOUT);

  it('20.15 a guard script the agent may edit draws a warning (still valid, exit 0); `no-modify scripts/` silences it', async () => {
    const ws = await setup('mode loop\nagent cmd true\nguard check ./scripts/check.sh --strict\n', { 'scripts/check.sh': '#!/bin/sh\nexit 0\n' });
    const warned = await runYoke(ws, ['config', 'check']);
    expect(warned.exitCode, warned.stderr).toBe(0);
    expect(warned.stderr).toContain('.loop/yoke.conf:3:13: warning: `guard check` runs `scripts/check.sh`, which the agent may rewrite: no `no-modify` prefix covers it (add `no-modify scripts/` (or `no-modify scripts/check.sh`), so a rewritten script fails the boundary check instead of deciding DONE (or `protect auto`, which also restores it: docs/protect.md))');
    const json = JSON.parse((await runYoke(ws, ['config', 'check', '--json'])).stdout) as { valid: boolean; issues: Array<{ severity: string; line: number }> };
    expect(json.valid).toBe(true);
    expect(json.issues).toEqual([expect.objectContaining({ severity: 'warning', line: 3 })]);

    await ws.write('.loop/yoke.conf', 'mode loop\nagent cmd true\nguard check ./scripts/check.sh --strict\nno-modify scripts/\n');
    const quiet = await runYoke(ws, ['config', 'check']);
    expect(quiet.exitCode, quiet.stderr).toBe(0);
    expect(quiet.stderr).toBe('');
  }, TIMEOUT);
});
