// Tool-call control with the real Codex CLI, Gemini CLI, Qwen Code and OpenCode (issues 13 and 21,
// DESIGN §13): `yoke run` wires Codex's PreToolUse hook (a `-c hooks.PreToolUse=…` override with
// --dangerously-bypass-hook-trust), Gemini's BeforeTool hook (a private GEMINI_CLI_HOME whose
// settings add the hook), Qwen's PreToolUse hook (a private QWEN_CODE_SYSTEM_SETTINGS_PATH) and
// OpenCode's tool.execute.before (a private plugin loaded by OPENCODE_CONFIG_CONTENT) to `yoke gate`,
// and the mock model server scripts the tool calls. Each case asserts on the file system, on what the
// model was told, and on the journal. None of these CLIs can pause on a call (no `defer`), so a hold
// is a denial saying the call is held; the run pauses after the agent call, and after `yoke answer
// <id> pass` the next attempt makes the same call again and it runs. Settings that would switch the
// hooks off refuse the run (Gemini), are overridden on the command line (Codex) or by yoke's private
// settings (Qwen, OpenCode); a CLI that runs tool calls without asking the gate anyway holds the run,
// and `replay --verify` fails on them.
import { appendFileSync, copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { agentCliBinary, agentCliPins, installedAgentCli, mockChatModel } from '../support/agent-clis.js';
import { rewriteJournal } from '../support/journal-edit.js';
import { journalPath, readJournal, type JournalRecord } from '../support/journal-records.js';
import type { MockScript } from '../support/mock-model-server/mock-script.js';
import type { OfflineRunResult } from '../support/mock-model-server/run-offline.js';
import { toolOutputsIn } from '../support/mock-model-server/tool-outputs.js';
import { makeWorkspace, runYoke, type Workspace } from '../support/workspace.js';
import { hooklessCli } from './support/hookless-cli.js';
import { runYokeOffline, type OfflineOptions } from './support/offline-yoke.js';

const workspaces: Workspace[] = [];
afterAll(async () => {
  if (process.env.KEEP_E2E === '1') return;
  await Promise.all(workspaces.splice(0).map((ws) => ws.cleanup()));
});

type HookCli = 'codex' | 'gemini' | 'qwen' | 'opencode';
const models = { codex: 'gpt-5.5', gemini: 'gemini-2.5-pro', qwen: mockChatModel, opencode: `mock/${mockChatModel}` } as const;
/** Each CLI's own settings: a write there is the agent editing its own hooks. */
const ownSettings = { codex: '.codex/config.toml', gemini: '.gemini/settings.json', qwen: '.qwen/settings.json', opencode: 'opencode.json' } as const;
/** A project that turns qwen's hooks off every way it can: its settings' `disableAllHooks`, safe mode and bare mode from its `.env`. */
const qwenHooksOff = {
  '.qwen/settings.json': '{ "$version": 4, "disableAllHooks": true }\n',
  '.env': 'QWEN_CODE_SAFE_MODE=1\nQWEN_CODE_SIMPLE=1\n',
};
/** A project whose own OpenCode config lists no plugins: yoke's plugin, given in OPENCODE_CONFIG_CONTENT, still loads. */
const opencodeNoPlugins = { 'opencode.json': '{ "plugin": [] }\n' };
/** Per CLI, a project that tries to switch its hooks off. */
const hooksOff: Partial<Record<HookCli, Record<string, string>>> = { qwen: qwenHooksOff, opencode: opencodeNoPlugins };
/** A recursive delete of the tracked keep/: codex refuses `rm -rf`/`rm -f` by itself before any hook, `rm -r` reaches it. */
const deleteKeep = { codex: 'rm -r keep', gemini: 'rm -r keep', qwen: 'rm -rf keep', opencode: 'rm -rf keep' } as const;

async function project(cli: HookCli, conf: string[], files: Record<string, string> = {}): Promise<Workspace> {
  const ws = await makeWorkspace({
    '.loop/yoke.conf': `${['mode loop', `agent ${cli}`, `model ${models[cli]}`, 'max-iterations 1', ...conf].join('\n')}\n`,
    '.loop/plan.md': '# Plan\n\nTidy up.\n',
    '.loop/protocol.md': '# Protocol\n\nDo one step, then write .loop/notes.md.\n',
    '.loop/.gitignore': '.journal/\n.stash/\n',
    'keep/file.txt': 'tracked\n',
    ...files,
  });
  workspaces.push(ws);
  return ws;
}

async function yokeOffline(cli: HookCli, ws: Workspace, script: MockScript, options: OfflineOptions = {}): Promise<OfflineRunResult> {
  const run = await runYokeOffline(cli, ws.path, ['run'], script, 150_000, options);
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

for (const cli of ['codex', 'gemini', 'qwen', 'opencode'] as const) {
  const installed = installedAgentCli(cli) !== undefined;
  const skip = !installed && !process.env.CI;
  if (skip) console.warn(`skipping the tool-control tests with ${cli}: ${cli} ${agentCliPins[cli].version} is not installed at ${agentCliBinary(cli)}; run bash scripts/install-agent-clis.sh.`);

  // The CLIs run side by side (each CLI's cases one after another): mostly waiting on processes.
  describe.skipIf(skip)(`tool-call control with ${cli} ${agentCliPins[cli].version}`, { timeout: 300_000, concurrent: true }, () => {
    it.sequential(`a shell \`${deleteKeep[cli]}\` is refused by yoke as destructive${hooksOff[cli] === undefined ? '' : ' (in a project whose own settings try to switch the hook off)'}: keep/ still exists and the model is told the class and the reach`, async () => {
      const ws = await project(cli, ['guard kept test -f keep/file.txt'], hooksOff[cli] ?? {});
      const run = await yokeOffline(cli, ws, [{ runCommand: { command: deleteKeep[cli] } }, ...done]);
      expect(run.exitCode, run.stderr).toBe(0);
      expect(await ws.read('keep/file.txt')).toBe('tracked\n');
      expect(toldModel(run)).toContain('classified destructive in this run is refused');
      const records = await readJournal(ws);
      expect(ruled(records)).toContainEqual({ ruling: 'refuse', class: 'destructive' });
      const requested = records.find((record) => record.type === 'tool.requested');
      expect(requested?.payload).toMatchObject({ agent: cli, input: { command: deleteKeep[cli] } });
    });

    if (cli === 'gemini') {
      it.sequential('a project .gemini/settings.json with hooksConfig.enabled false: yoke refuses to start gemini (exit 2, naming the file and the setting), and keep/ is untouched', async () => {
        const ws = await project(cli, [], { '.gemini/settings.json': '{"hooksConfig": {"enabled": false}}\n' });
        const run = await yokeOffline(cli, ws, [{ runCommand: { command: 'rm -r keep' } }, ...done]);
        expect(run.exitCode, run.stderr).toBe(2);
        expect(run.stderr).toContain('.gemini/settings.json sets "hooksConfig": {"enabled": false}: Gemini CLI would run no hooks at all');
        expect(run.requests, 'gemini was never started').toHaveLength(0);
        expect(await ws.read('keep/file.txt')).toBe('tracked\n');
      });
    } else if (cli === 'codex') {
      it.sequential('`[features] hooks = false` in the user\'s codex config does not switch the gate off: yoke overrides it, and `rm -r keep` is refused', async () => {
        const ws = await project(cli, ['guard kept test -f keep/file.txt']);
        const prepare = (env: Record<string, string>) => appendFileSync(join(env.CODEX_HOME!, 'config.toml'), '\n[features]\nhooks = false\ncodex_hooks = false\n');
        const run = await yokeOffline(cli, ws, [{ runCommand: { command: 'rm -r keep' } }, ...done], { prepare });
        expect(run.exitCode, run.stderr).toBe(0);
        expect(await ws.read('keep/file.txt')).toBe('tracked\n');
        expect(ruled(await readJournal(ws))).toContainEqual({ ruling: 'refuse', class: 'destructive' });
      });
    }

    it.sequential(`a ${cli} that runs its tool calls without asking the gate: the run holds on them (exit 1, naming them) and \`replay --verify\` fails at that agent call`, async () => {
      const ws = await project(cli, ['guard done test -f .loop/notes.md']);
      const hookless = hooklessCli(cli);
      workspaces.push({ cleanup: () => rmSync(hookless, { recursive: true, force: true }) } as Workspace);
      const command = deleteKeep[cli];
      const run = await yokeOffline(cli, ws, [{ runCommand: { command } }, ...done], { pathFirst: hookless });
      expect(run.exitCode, run.stderr).toBe(1);
      expect(run.stderr).toMatch(new RegExp(`${cli} ran 2 tool calls yoke's gate never ruled on \\((Bash|run_shell_command|bash) ${command}; `));
      expect(existsSync(ws.abs('keep')), 'the CLI did delete keep/: the journal proves no ruling allowed it').toBe(false);
      const records = await readJournal(ws);
      expect(records.filter((record) => record.type.startsWith('tool.'))).toEqual([]);
      const call = records.find((record) => record.type === 'effect.completed' && (record.payload as { kind: string }).kind === 'agent.spawn')!;
      expect((call.payload as { result: { classification: string; toolCalls: unknown[] } }).result).toMatchObject({ classification: 'tool-ungated', toolCalls: [{}, {}] });
      const verified = await runYoke(ws, ['replay', '--verify', '--json']);
      expect(verified.exitCode, verified.stdout + verified.stderr).toBe(1);
      expect(JSON.parse(verified.stdout)).toMatchObject({ status: 'diverged', divergence: { seq: call.seq, record: 'effect.completed', path: 'toolCalls' } });
    });

    it.sequential('a write to a no-modify path is refused at call time: the file is never written', async () => {
      const ws = await project(cli, ['no-modify src/', 'guard done test -f .loop/notes.md'], { 'src/main.txt': 'original\n' });
      const run = await yokeOffline(cli, ws, [{ writeFile: { path: 'src/locked.txt', content: 'nope\n' } }, ...done]);
      expect(run.exitCode, run.stderr).toBe(0);
      expect(existsSync(ws.abs('src/locked.txt'))).toBe(false);
      expect(toldModel(run)).toContain('classified protected');
      expect(ruled(await readJournal(ws))).toContainEqual({ ruling: 'refuse', class: 'protected' });
    });

    it.sequential(`a write to ${ownSettings[cli]} is refused: the agent cannot edit its own hooks`, async () => {
      const ws = await project(cli, ['guard done test -f .loop/notes.md']);
      const run = await yokeOffline(cli, ws, [{ writeFile: { path: ownSettings[cli], content: '{}\n' } }, ...done]);
      expect(run.exitCode, run.stderr).toBe(0);
      expect(existsSync(ws.abs(ownSettings[cli]))).toBe(false);
      expect(ruled(await readJournal(ws))).toContainEqual({ ruling: 'refuse', class: 'protected' });
    });

    it.sequential('`curl http://127.0.0.1:<port>` is held: denied as held, the run pauses; after `yoke answer <id> pass` the next attempt makes the call again and it runs', async () => {
      const ws = await project(cli, ['guard done test -f .loop/notes.md']);
      const curl = { runCommand: { command: 'curl -s http://127.0.0.1:9/ ; echo curled > curled.txt' } };
      const first = await yokeOffline(cli, ws, [curl, { text: 'waiting for the operator' }]);
      expect(first.exitCode, first.stderr).toBe(1);
      expect(first.stderr).toMatch(/yoke answer [0-9a-f]{8} pass/);
      expect(existsSync(ws.abs('curled.txt')), 'the held call did not run').toBe(false);
      expect(toldModel(first)).toContain('yoke pauses the run when this turn ends');

      const holds = await runYoke(ws, ['holds', '--json']);
      expect(holds.exitCode, holds.stderr).toBe(0);
      const [hold] = JSON.parse(holds.stdout) as Array<{ id: string; class: string; agent: string }>;
      expect(hold).toMatchObject({ class: 'network', agent: cli });
      const answered = await runYoke(ws, ['answer', hold!.id, 'pass']);
      expect(answered.exitCode, answered.stderr).toBe(0);

      const second = await yokeOffline(cli, ws, [curl, ...done]);
      expect(second.exitCode, second.stderr).toBe(0);
      expect(await ws.read('curled.txt')).toBe('curled\n');
      const records = await readJournal(ws);
      expect(ruled(records).map((r) => `${r.ruling} ${r.class ?? '-'}`)).toEqual(['hold network', 'pass network', 'pass edit']);
      const ruledPass = records.filter((record) => record.type === 'tool.ruled')[1]?.payload as { source: { kind: string; scope?: string } };
      expect(ruledPass.source).toMatchObject({ kind: 'answer', scope: 'call' });

      // usage and status count the held and the passed calls, per class
      const usage = await runYoke(ws, ['usage', '--json']);
      expect((JSON.parse(usage.stdout) as { toolCalls: unknown }).toolCalls).toMatchObject({ total: 3, pass: 2, hold: 1, refuse: 0, byClass: { network: { pass: 1, hold: 1, refuse: 0 }, edit: { pass: 1 } } });
      const status = await runYoke(ws, ['status', '--json']);
      expect((JSON.parse(status.stdout) as { toolCalls: unknown }).toolCalls).toMatchObject({ total: 3, pass: 2, hold: 1 });
      // replay --verify rules again on every journaled request, with the answers folded so far
      const verified = await runYoke(ws, ['replay', '--verify']);
      expect(verified.exitCode, verified.stdout + verified.stderr).toBe(0);
      expect(verified.stdout).toContain('and 3 tool rulings re-derived');
      // a journal whose hold was turned into a pass (chain recomputed) diverges at that ruling
      const tampered = ws.abs('tampered.jsonl');
      copyFileSync(journalPath(ws.path), tampered);
      rewriteJournal(tampered, (record) => {
        const payload = record.payload as { ruling?: string };
        if (record.type === 'tool.ruled' && payload.ruling === 'hold') payload.ruling = 'pass';
      });
      const diverged = await runYoke(ws, ['replay', '--verify', '--json', '--journal', tampered]);
      expect(diverged.exitCode, diverged.stdout + diverged.stderr).toBe(1);
      const heldAt = records.find((record) => record.type === 'tool.ruled')!.seq;
      expect(JSON.parse(diverged.stdout)).toMatchObject({ status: 'diverged', divergence: { seq: heldAt, record: 'tool.ruled', path: 'ruling', journal: 'pass', machine: 'hold' } });
    });

    it.sequential('a hold answered while the run is live: `yoke answer` tells the run over its socket, the model\'s second try runs, and the run never pauses', async () => {
      const ws = await project(cli, ['guard done test -f .loop/notes.md']);
      const signals = mkdtempSync(join(tmpdir(), 'yoke-live-answer-'));
      workspaces.push({ cleanup: () => rmSync(signals, { recursive: true, force: true }) } as Workspace);
      const operatorDone = join(signals, 'answered');
      const curl = { runCommand: { command: 'curl -s http://127.0.0.1:9/ ; echo curled > curled.txt' } };
      // the model's request after the held call waits until the operator has answered
      const running = yokeOffline(cli, ws, [curl, { ...curl, waitFor: operatorDone }, ...done]);
      const hold = await heldCall(ws);
      expect(existsSync(ws.abs('curled.txt')), 'the held call did not run').toBe(false);
      const answered = await runYoke(ws, ['answer', hold, 'pass', '--why', 'loopback is fine']);
      expect(answered.exitCode, answered.stderr).toBe(0);
      expect(answered.stdout).toContain('the live run');
      writeFileSync(operatorDone, '');

      const run = await running;
      expect(run.exitCode, run.stderr).toBe(0);
      expect(await ws.read('curled.txt')).toBe('curled\n');
      const records = await readJournal(ws);
      expect(ruled(records).map((r) => `${r.ruling} ${r.class ?? '-'}`)).toEqual(['hold network', 'pass network', 'pass edit']);
      const started = records.find((record) => record.type === 'run.started')!;
      expect(records.find((record) => record.type === 'tool.answered')).toMatchObject({ run: started.run, payload: { id: hold, ruling: 'pass', why: 'loopback is fine' } });
      expect(records.some((record) => record.type === 'run.paused'), 'a hold answered live does not pause the run').toBe(false);
      expect(existsSync(join(ws.path, '.loop/.journal/gate.json')), 'the gate pointer goes with the run').toBe(false);
      const verified = await runYoke(ws, ['replay', '--verify']);
      expect(verified.exitCode, verified.stdout + verified.stderr).toBe(0);
    });
  });
}

/** The id of the first held call, once the live run has journaled it. */
async function heldCall(ws: Workspace): Promise<string> {
  const until = Date.now() + 120_000;
  while (Date.now() < until) {
    let records: JournalRecord[] = [];
    try {
      records = await readJournal(ws);
    } catch {
      // a line being written: read again
    }
    const held = records.find((record) => record.type === 'tool.ruled' && (record.payload as { ruling: string }).ruling === 'hold');
    if (held !== undefined) return (held.payload as { id: string }).id;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the run journaled no held call within 120 s');
}
