// `yoke run` progress (issue 7): on a terminal, agent output scrolls above one live status line that
// is redrawn in place (and never shares a line with output); without one, timestamped lines. The
// terminal is a real pty from util-linux `script`.
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import type { FakeScript } from '../support/fake-agent-script.js';
import { confHead } from '../support/loop-conf.js';
import { makeLoopWorkspace } from '../support/loop-workspace.js';
import { screenLines } from '../support/terminal-screen.js';
import { runYoke, type Workspace } from '../support/workspace.js';
import { yokeBin } from '../support/yoke-process.js';

const TIMEOUT = 45_000;
const workspaces: Workspace[] = [];

afterEach(async () => {
  if (process.env.KEEP_E2E === '1') return;
  await Promise.all(workspaces.splice(0).map((ws) => ws.cleanup()));
});

/** One iteration: a line, 4 s of silence, a partial line, 1.5 s of silence, the rest, DONE. */
const SCRIPT: FakeScript = {
  default: [{ stdout: 'AGENT-LINE-1\n' }, { sleepMs: 4000 }, { stdout: 'partial...' }, { sleepMs: 1500 }, { stdout: 'AGENT-LINE-2\n', notes: 'DONE' }],
};

async function setup() {
  const made = await makeLoopWorkspace({ conf: [...confHead(3), 'commit off'], script: SCRIPT });
  workspaces.push(made.ws);
  return made;
}

/** Run `yoke run` on a 160-column pty; returns everything the terminal received. */
async function runOnTerminal(ws: Workspace, env: Record<string, string>): Promise<{ exitCode: number | undefined; raw: string }> {
  const command = `stty cols 160 rows 40 2>/dev/null; exec '${process.execPath}' '${yokeBin}' run`;
  const result = await execa('script', ['-qefc', command, '/dev/null'], { cwd: ws.path, env, reject: false, timeout: 40_000, input: '' });
  return { exitCode: result.exitCode, raw: result.stdout };
}

function baseEnv(extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !key.startsWith('YOKE_') && !key.startsWith('FAKE_AGENT_') && key !== 'NO_COLOR' && key !== 'FORCE_COLOR') env[key] = value;
  }
  return { ...env, ...extra };
}

describe('yoke run on a terminal', () => {
  it('draws one status line that updates in place (elapsed, silence) and never mixes with agent output', async () => {
    const { ws, env } = await setup();
    const { exitCode, raw } = await runOnTerminal(ws, baseEnv({ ...env, NO_COLOR: '1' }));
    expect(exitCode, raw).toBe(0);

    // every drawing of the status line: erase the line, then the text
    // eslint-disable-next-line no-control-regex -- terminal escape sequences are the point
    const drawn = [...raw.matchAll(/\r\x1b\[2K(yoke · [^\r\n\x1b]*)/g)].map((match) => match[1] as string);
    expect(drawn.length).toBeGreaterThan(3);
    const working = drawn.filter((text) => /^yoke · loop \w{10} · iteration 1\/3 · worker agent · \d+s/.test(text));
    expect(working.length, drawn.join('\n')).toBeGreaterThan(2);
    const silences = new Set(working.map((text) => /silent (\d+)s/.exec(text)?.[1]).filter((s) => s !== undefined));
    expect(silences.size, `the silence counter moved while the agent slept: ${[...silences].join(',')}`).toBeGreaterThanOrEqual(2);
    const elapsed = new Set(working.map((text) => /worker agent · (\d+)s/.exec(text)?.[1]));
    expect(elapsed.size, 'the elapsed time moved').toBeGreaterThanOrEqual(2);
    // eslint-disable-next-line no-control-regex -- terminal escape sequences are the point
    expect(raw).not.toMatch(/\x1b\[3\dm/); // NO_COLOR

    const screen = screenLines(raw);
    expect(screen).toContain('AGENT-LINE-1');
    expect(screen).toContain('partial...');
    expect(screen).toContain('AGENT-LINE-2');
    for (const line of screen) {
      expect(line.includes('yoke ·') && /AGENT|partial/.test(line), `status and output share a line: ${line}`).toBe(false);
    }
    // once the run ends, the status line is gone: the screen ends with the last progress line
    expect(screen.filter((line) => line !== '').at(-1)).toMatch(/yoke: done after 1 iteration\(s\)/);
  }, TIMEOUT);

  it('colors the status line unless NO_COLOR is set', async () => {
    const { ws, env } = await setup();
    const { exitCode, raw } = await runOnTerminal(ws, baseEnv({ ...env }));
    expect(exitCode, raw).toBe(0);
    expect(raw).toContain('\x1b[36myoke\x1b[0m');
  }, TIMEOUT);
});

describe('yoke run without a terminal', () => {
  it('prints plain timestamped progress lines and no status line', async () => {
    const { ws, env } = await setup();
    const result = await runYoke(ws, ['run'], { env });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/^\d\d:\d\d:\d\d yoke: started run \w+ \(loop, at most 3 iterations\)$/m);
    expect(result.stderr).toMatch(/^\d\d:\d\d:\d\d yoke: iteration 1\/3: worker started$/m);
    expect(result.stderr).not.toContain('\x1b');
    expect(result.stderr).not.toContain('yoke ·');
    expect(result.stdout).toContain('AGENT-LINE-1\n');
  }, TIMEOUT);

  it('--json prints only journal records on stdout; agent output goes to stderr', async () => {
    const { ws, env } = await setup();
    const result = await runYoke(ws, ['run', '--json'], { env });
    expect(result.exitCode, result.stderr).toBe(0);
    const records = result.stdout.trim().split('\n').map((line) => JSON.parse(line) as { seq: number; type: string });
    expect(records[0]?.type).toBe('run.started');
    expect(records.at(-1)?.type).toBe('run.finished');
    expect(records.map((record) => record.seq)).toEqual(records.map((_, index) => index + 1));
    expect(result.stderr).toContain('AGENT-LINE-1');
    expect(result.stderr).not.toMatch(/yoke: iteration/);
  }, TIMEOUT);
});
