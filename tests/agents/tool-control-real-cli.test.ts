// Tool-call control with the real Claude Code (issue 13, DESIGN §13): `yoke run` wires Claude's
// PreToolUse hook to `yoke gate` through `--settings`, and the mock model server scripts the tool
// calls. Each case asserts on the file system, on what the model was told, and on the journal:
// a destructive `rm -rf keep/`, a write to a `no-modify` path and a write to .claude/settings.json
// are refused at call time (the files stay as they were); a `curl` to loopback is held, the run
// pauses, `yoke answer <id> pass` and `yoke run` resume Claude's session and the run finishes.
// Settings that switch Claude's hooks off refuse the run before Claude starts; a Claude that runs
// tool calls without asking the gate anyway holds the run, and `replay --verify` fails on them.
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { agentCliBinary, agentCliPins, installedAgentCli, offlineAgentEnv, type OfflineAgentEnv } from '../support/agent-clis.js';
import { readJournal, type JournalRecord } from '../support/journal-records.js';
import type { MockScript } from '../support/mock-model-server/mock-script.js';
import { runOffline, type OfflineRunResult } from '../support/mock-model-server/run-offline.js';
import { toolOutputsIn } from '../support/mock-model-server/tool-outputs.js';
import { makeWorkspace, runYoke, type Workspace } from '../support/workspace.js';
import { yokeBin } from '../support/yoke-process.js';
import { hooklessCli } from './support/hookless-cli.js';

const workspaces: Workspace[] = [];
const envs: OfflineAgentEnv[] = [];
afterAll(async () => {
  if (process.env.KEEP_E2E === '1') return;
  await Promise.all([...workspaces.splice(0).map((ws) => ws.cleanup()), ...envs.splice(0).map((env) => env.cleanup())]);
});

const installed = installedAgentCli('claude') !== undefined;
const skip = !installed && !process.env.CI;
if (skip) console.warn(`skipping the tool-control tests with claude: claude ${agentCliPins.claude.version} is not installed at ${agentCliBinary('claude')}; run bash scripts/install-agent-clis.sh.`);

async function project(conf: string[], files: Record<string, string> = {}): Promise<Workspace> {
  const ws = await makeWorkspace({
    '.loop/yoke.conf': `${['mode loop', 'agent claude', 'model claude-sonnet-4-5', 'max-iterations 1', ...conf].join('\n')}\n`,
    '.loop/plan.md': '# Plan\n\nTidy up.\n',
    '.loop/protocol.md': '# Protocol\n\nDo one step, then write .loop/notes.md.\n',
    '.loop/.gitignore': '.journal/\n.stash/\n',
    'keep/file.txt': 'tracked\n',
    ...files,
  });
  workspaces.push(ws);
  return ws;
}

/** `yoke <args>` offline in `ws`; `home` keeps one isolated HOME across calls (Claude's sessions live there); `pathFirst` goes ahead of claude on PATH. */
async function yokeOffline(ws: Workspace, args: string[], script: MockScript, home: { env?: OfflineAgentEnv } = {}, pathFirst?: string): Promise<OfflineRunResult> {
  const bin = installedAgentCli('claude')!;
  if (!existsSync(yokeBin)) throw new Error(`the built yoke CLI is missing at ${yokeBin}; run npm run build first.`);
  const run = await runOffline({
    script,
    timeoutMs: 150_000,
    command: async (baseUrl) => {
      if (home.env === undefined) {
        home.env = await offlineAgentEnv('claude', baseUrl);
        envs.push(home.env);
      }
      const path = [pathFirst, dirname(bin), home.env.env.PATH ?? ''].filter((part) => part !== undefined).join(':');
      const env = { ...home.env.env, ANTHROPIC_BASE_URL: baseUrl, PATH: path, NO_COLOR: '1', FORCE_COLOR: '0' };
      return { file: process.execPath, args: [yokeBin, ...args], env, cwd: ws.path };
    },
  });
  expect(run.timedOut, `yoke timed out; stderr:\n${run.stderr}`).toBe(false);
  return run;
}

const ruled = (records: JournalRecord[]): Array<{ ruling: string; class: string | null }> =>
  records.filter((record) => record.type === 'tool.ruled').map((record) => {
    const payload = record.payload as { ruling: string; class: string | null };
    return { ruling: payload.ruling, class: payload.class };
  });

/** What the model was told about its tool calls, across every request. */
const toldModel = (run: OfflineRunResult): string => run.requests.flatMap((request) => toolOutputsIn(request).map((output) => output.output)).join('\n');

const done: MockScript = [
  { writeFile: { path: '.loop/notes.md', content: 'STATUS: DONE\n\nTried.\n' } },
  { text: 'done' },
];

describe.skipIf(skip)(`tool-call control with claude ${agentCliPins.claude.version}`, { timeout: 300_000 }, () => {
  it('a shell `rm -rf keep/` is refused as destructive: keep/ still exists and the model is told the class and the reach', async () => {
    const ws = await project(['guard kept test -f keep/file.txt']);
    const run = await yokeOffline(ws, ['run'], [{ runCommand: { command: 'rm -rf keep/' } }, ...done]);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(await ws.read('keep/file.txt')).toBe('tracked\n');
    const told = toldModel(run);
    expect(told).toContain('every Bash call classified destructive in this run is refused');
    const records = await readJournal(ws);
    expect(ruled(records)).toContainEqual({ ruling: 'refuse', class: 'destructive' });
    const requested = records.find((record) => record.type === 'tool.requested');
    expect(requested?.payload).toMatchObject({ agent: 'claude', tool: 'Bash', input: { command: 'rm -rf keep/' } });
  });

  it('a write to a no-modify path, and one to a `protect` path, are refused at call time: neither file is written, and replay --verify agrees', async () => {
    const ws = await project(['no-modify src/', 'protect keep/', 'guard done test -f .loop/notes.md'], { 'src/main.txt': 'original\n' });
    const run = await yokeOffline(ws, ['run'], [{ writeFile: { path: 'src/locked.txt', content: 'nope\n' } }, { writeFile: { path: 'keep/new.txt', content: 'nope\n' } }, ...done]);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(existsSync(ws.abs('src/locked.txt'))).toBe(false);
    expect(existsSync(ws.abs('keep/new.txt'))).toBe(false);
    expect(toldModel(run)).toContain('classified protected');
    expect(toldModel(run)).toContain('protected by `protect keep/`');
    expect(ruled(await readJournal(ws)).filter((r) => r.class === 'protected')).toEqual([{ ruling: 'refuse', class: 'protected' }, { ruling: 'refuse', class: 'protected' }]);
    const verified = await runYoke(ws, ['replay', '--verify']);
    expect(verified.exitCode, verified.stdout + verified.stderr).toBe(0);
  });

  it('a write to .claude/settings.json is refused: the agent cannot edit its own hooks', async () => {
    const ws = await project(['guard done test -f .loop/notes.md']);
    const run = await yokeOffline(ws, ['run'], [{ writeFile: { path: '.claude/settings.json', content: '{"hooks":{}}\n' } }, ...done]);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(existsSync(ws.abs('.claude/settings.json'))).toBe(false);
    expect(ruled(await readJournal(ws))).toContainEqual({ ruling: 'refuse', class: 'protected' });
  });

  it('`curl http://127.0.0.1:<port>` is held: the run pauses; `yoke answer <id> pass` and `yoke run` resume the session, the call runs, the run finishes', async () => {
    const ws = await project(['guard done test -f .loop/notes.md']);
    const home: { env?: OfflineAgentEnv } = {};
    const first = await yokeOffline(ws, ['run'], [{ runCommand: { command: 'curl -s http://127.0.0.1:9/ ; echo curled > curled.txt' } }, { text: 'unused' }], home);
    expect(first.exitCode, first.stderr).toBe(1);
    expect(first.stderr).toMatch(/yoke answer [0-9a-f]{8} pass/);
    expect(existsSync(ws.abs('curled.txt')), 'the held call did not run').toBe(false);

    const holds = await runYoke(ws, ['holds', '--json']);
    expect(holds.exitCode, holds.stderr).toBe(0);
    const [hold] = JSON.parse(holds.stdout) as Array<{ id: string; class: string; tool: string; agent: string }>;
    expect(hold).toMatchObject({ class: 'network', tool: 'Bash', agent: 'claude' });

    const wider = await runYoke(ws, ['answer', hold!.id, 'pass', '--scope', 'run']);
    expect(wider.exitCode, 'a network hold may stand for the run, but not this test').toBe(0);
    const again = await runYoke(ws, ['answer', hold!.id, 'pass']);
    expect(again.exitCode, 'an answered hold cannot be answered again').toBe(2);
    expect(again.stderr).toContain('already answered');

    const second = await yokeOffline(ws, ['run'], done, home);
    expect(second.exitCode, second.stderr).toBe(0);
    expect(await ws.read('curled.txt')).toBe('curled\n');
    const records = await readJournal(ws);
    expect(ruled(records).map((r) => `${r.ruling} ${r.class ?? '-'}`)).toEqual(['hold network', 'pass network', 'pass edit']);
    const ruledPass = records.filter((record) => record.type === 'tool.ruled')[1]?.payload as { source: { kind: string; scope?: string } };
    expect(ruledPass.source).toMatchObject({ kind: 'answer', scope: 'run' });
    // the second call resumed Claude's session: the model's first request carries the held call's result
    expect(toldModel(second)).not.toContain('refused');
    // replay --verify rules again on every request, the run-wide answer folded in
    const verified = await runYoke(ws, ['replay', '--verify']);
    expect(verified.exitCode, verified.stdout + verified.stderr).toBe(0);
    expect(verified.stdout).toContain('and 3 tool rulings re-derived');
  });

  it('a project .claude/settings.json with "disableAllHooks": true: yoke refuses to start claude (exit 2, naming the file and the setting), and keep/ is untouched', async () => {
    const ws = await project(['guard kept test -f keep/file.txt'], { '.claude/settings.json': '{"disableAllHooks": true}\n' });
    const run = await yokeOffline(ws, ['run'], [{ runCommand: { command: 'rm -rf keep/' } }, ...done]);
    expect(run.exitCode, run.stderr).toBe(2);
    expect(run.stderr).toContain('.claude/settings.json sets "disableAllHooks": true: Claude Code would run none of the hooks yoke passes it');
    expect(run.stderr).toContain('tool-control off');
    expect(run.requests, 'claude was never started').toHaveLength(0);
    expect(await ws.read('keep/file.txt')).toBe('tracked\n');
    expect(await readJournal(ws)).toEqual([]);
    // `yoke config check` says so before a run does, at the setting's line
    const check = await runYoke(ws, ['config', 'check', '--json']);
    expect(check.exitCode).toBe(2);
    expect((JSON.parse(check.stdout) as { issues: unknown[] }).issues).toContainEqual(expect.objectContaining({ file: ws.abs('.claude/settings.json'), line: 1, severity: 'error', message: expect.stringContaining('"disableAllHooks": true') as unknown }));
  });

  it('a claude that runs its tool calls without asking the gate: the run holds on them (exit 1, naming them) and `replay --verify` fails at that agent call', async () => {
    const ws = await project(['guard done test -f .loop/notes.md']);
    const hookless = hooklessCli('claude');
    envs.push({ cleanup: () => rm(hookless, { recursive: true, force: true }) } as OfflineAgentEnv);
    const run = await yokeOffline(ws, ['run'], [{ runCommand: { command: 'rm -rf keep/' } }, ...done], {}, hookless);
    expect(run.exitCode, run.stderr).toBe(1);
    expect(run.stderr).toContain("claude ran 2 tool calls yoke's gate never ruled on (Bash rm -rf keep/; Write ");
    expect(run.stderr).toContain('make sure nothing in the CLI\'s settings switches its hooks off');
    // the CLI did delete keep/: what the journal proves is that no ruling allowed it
    expect(existsSync(ws.abs('keep'))).toBe(false);
    const records = await readJournal(ws);
    expect(records.filter((record) => record.type.startsWith('tool.'))).toEqual([]);
    const call = records.find((record) => record.type === 'effect.completed' && (record.payload as { kind: string }).kind === 'agent.spawn')!;
    expect((call.payload as { result: unknown }).result).toMatchObject({ classification: 'tool-ungated', toolCalls: [{ tool: 'Bash', summary: 'Bash rm -rf keep/' }, { tool: 'Write' }] });
    const verified = await runYoke(ws, ['replay', '--verify', '--json']);
    expect(verified.exitCode, verified.stdout + verified.stderr).toBe(1);
    expect(JSON.parse(verified.stdout)).toMatchObject({ status: 'diverged', divergence: { seq: call.seq, record: 'effect.completed', path: 'toolCalls', journal: { summary: 'Bash rm -rf keep/' } } });
  });
});
