// `yoke status` after the tamper check stopped a run (issue 20, item 11): it must say the tamper
// check stopped it and name the kept `.tampered-*` copy, not call a deliberate stop a crash.
import { readdirSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { makeJudgedWorkspace } from '../support/judged-workspace.js';
import { runYoke, type Workspace } from '../support/workspace.js';

const TIMEOUT = 90_000;
const workspaces: Workspace[] = [];
afterEach(async () => {
  for (const ws of workspaces.splice(0)) await ws.cleanup();
});

describe('issue 20 item 11: `yoke status` called a deliberate tamper stop a crash', () => {
  it('after the agent appends to the journal (exit 3), status says "stopped by the tamper check" and names the kept copy', async () => {
    const { ws } = await makeJudgedWorkspace({
      mode: 'loop',
      conf: ['max-iterations 3', 'commit off'],
      script: { worker: [{ sh: `printf '%s\\n' '{"forged":true}' >> .loop/.journal/journal.jsonl`, notes: 'DONE' }], after: { worker: { notes: 'DONE' } } },
    });
    workspaces.push(ws);
    const stopped = await runYoke(ws, ['run', '--quiet']);
    expect(stopped.exitCode, stopped.stderr).toBe(3);
    const kept = readdirSync(ws.abs('.loop/.journal')).filter((name) => name.startsWith('journal.jsonl.tampered-'));
    expect(kept).toHaveLength(1);

    const status = await runYoke(ws, ['status']);
    expect(status.exitCode, status.stderr).toBe(0);
    expect(status.stdout).toMatch(/stopped +stopped by the tamper check: /);
    expect(status.stdout).toContain(kept[0]);
    expect(status.stdout).not.toMatch(/DEAD|crash or kill -9/);

    const json = JSON.parse((await runYoke(ws, ['status', '--json'])).stdout) as { liveness: string; lastStop: string };
    expect(json.liveness).toBe('stopped');
    expect(json.lastStop).toMatch(/^stopped by the tamper check: .*tampered-/);

    // and the run resumes as before
    const resumed = await runYoke(ws, ['run', '--quiet']);
    expect(resumed.exitCode, resumed.stderr).toBe(0);
  }, TIMEOUT);
});
