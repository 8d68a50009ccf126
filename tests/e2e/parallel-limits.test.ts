// Parallel stories' bad input (DESIGN §10, issue 16) against the bundle: `--parallel` and `parallel N`
// out of 1–8 or outside stories mode exit 2, a dirty target exits 3 with what to do, and nothing is
// journaled in any of those cases; N is journaled in run.started. A built-in agent with tool control
// on is not refused: its lanes go through the tool-call gate (tests/agents/parallel-tool-control-real-cli.test.ts).
import { afterEach, describe, expect, it } from 'vitest';
import { readJournal } from '../support/journal-records.js';
import { makeWorkspace, runYoke, type Workspace } from '../support/workspace.js';

const TIMEOUT = 90_000;
/** A whole parallel run may take longer than runYoke's default under a loaded CI machine. */
const RUN_MS = TIMEOUT - 20_000;
const workspaces: Workspace[] = [];
afterEach(async () => {
  for (const ws of workspaces.splice(0)) await ws.cleanup();
});

const PRD = 'stories:\n  - id: S1\n    title: Only\n    acceptance: [x]\n';

async function workspace(conf: string): Promise<Workspace> {
  const ws = await makeWorkspace({
    '.loop/yoke.conf': conf,
    '.loop/prd.yaml': PRD,
    '.loop/plan.md': '# Plan\n',
    '.loop/protocol.md': '# Protocol\n',
    '.loop/notes.md': 'STATUS: IN_PROGRESS\n',
    '.loop/.gitignore': '.journal/\n.stash/\n',
  });
  workspaces.push(ws);
  return ws;
}

const STORIES = "mode stories\nagent cmd printf 'STATUS: DONE\\n' > .loop/notes.md\n";

describe('parallel limits', () => {
  it.each([['0'], ['9'], ['-1'], ['two']])('refuses --parallel %s with exit 2 and journals nothing', async (value) => {
    const ws = await workspace(STORIES);
    const result = await runYoke(ws, ['run', '--parallel', value], { timeoutMs: RUN_MS });
    expect(result.exitCode, result.stderr).toBe(2);
    expect(result.stderr).toMatch(/--parallel/);
    expect(await ws.exists('.loop/.journal')).toBe(false);
  }, TIMEOUT);

  it('refuses parallel 9 in yoke.conf with file:line and exit 2', async () => {
    const ws = await workspace(`${STORIES}parallel 9\n`);
    const result = await runYoke(ws, ['run'], { timeoutMs: RUN_MS });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/\.loop\/yoke\.conf:3:\d+: error: `9` is more than 8/);
    expect(await ws.exists('.loop/.journal')).toBe(false);
  }, TIMEOUT);

  it('refuses --parallel outside stories mode with exit 2', async () => {
    const ws = await workspace("mode loop\nagent cmd printf 'STATUS: DONE\\n' > .loop/notes.md\n");
    const result = await runYoke(ws, ['run', '--parallel', '2'], { timeoutMs: RUN_MS });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/--parallel works only in stories mode, and this run is loop/);
    expect(await ws.exists('.loop/.journal')).toBe(false);
  }, TIMEOUT);

  it('no longer refuses a gated agent (claude) with tool-control on (lanes go through the gate): the run gets as far as the target check', async () => {
    const ws = await workspace('mode stories\nagent claude\n');
    await ws.write('src.txt', 'uncommitted\n');
    const result = await runYoke(ws, ['run', '--parallel', '2'], { timeoutMs: RUN_MS });
    expect(result.stderr).not.toMatch(/tool calls yet|tool-control off/);
    expect(result.exitCode, result.stderr).toBe(3);
    expect(result.stderr).toMatch(/working tree has changes \(src\.txt\)/);
  }, TIMEOUT);

  it('refuses a dirty target with exit 3, naming the changes and what to do', async () => {
    const ws = await workspace(STORIES);
    await ws.write('src.txt', 'uncommitted\n');
    const result = await runYoke(ws, ['run', '--parallel', '2'], { timeoutMs: RUN_MS });
    expect(result.exitCode).toBe(3);
    expect(result.stderr).toMatch(/working tree has changes \(src\.txt\).*commit or stash them first/);
    expect(await ws.exists('.loop/.journal')).toBe(false);
  }, TIMEOUT);

  it('journals N in run.started', async () => {
    const ws = await workspace(STORIES);
    const result = await runYoke(ws, ['run', '--parallel', '3'], { timeoutMs: RUN_MS });
    expect(result.exitCode, result.stderr).toBe(0);
    const started = (await readJournal(ws)).find((record) => record.type === 'run.started');
    expect((started?.payload as { input: { config: { parallel?: number } } }).input.config.parallel).toBe(3);
  }, TIMEOUT);
});
