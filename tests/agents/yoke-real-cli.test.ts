// yoke driving the real Claude Code, Codex, Gemini, OpenCode and Qwen Code CLIs end to end (issues 6
// and 21): the built CLI (dist/bundle/yoke.js, `npm run build` first) runs `yoke run` with
// `agent claude|codex|gemini|opencode|qwen` in a
// temp git project, inside a loopback-only network namespace (as root) with the scripted mock model
// server bridged in, so yoke and the CLI it spawns never leave the machine. Each case gets a fresh
// project and a fresh mock server; the CLI gets its isolated offline HOME/TMPDIR (offlineAgentEnv).
// Checked: a loop and a judged (brute) run complete through real tool calls with the exact usage each
// CLI reports in the ledger; 401, 500, a silent hang, a denied tool call and a 429 each end as a
// clear, journaled outcome. A CLI that is not installed is skipped with a reason (failing under CI).
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { agentCliBinary, agentCliPins, installedAgentCli, mockChatModel, type AgentCliName } from '../support/agent-clis.js';
import { readJournal, type JournalRecord } from '../support/journal-records.js';
import type { MockScript, MockUsage } from '../support/mock-model-server/mock-script.js';
import { loopbackNamespaceAvailable, type OfflineRunResult } from '../support/mock-model-server/run-offline.js';
import { makeWorkspace, runYoke, type Workspace } from '../support/workspace.js';
import { cliReportedUsage, type ReportedUsage } from './support/cli-reported-usage.js';
import { runYokeOffline } from './support/offline-yoke.js';

const models: Record<AgentCliName, string> = { claude: 'claude-sonnet-4-5', codex: 'gpt-5.5', gemini: 'gemini-2.5-pro', opencode: `mock/${mockChatModel}`, qwen: mockChatModel };

/** One agent call as journaled: who, which iteration, and its `agent.spawn` result. */
interface AgentCall {
  role: string;
  iteration: number;
  result: { classification: string; detail: string | null; usage: ReportedUsage | null; transcript: string; retryAfterMs: number | null; endedAt: number };
}

function agentCalls(records: JournalRecord[]): AgentCall[] {
  const params = new Map<string, { role: string; iteration: number }>();
  const calls: AgentCall[] = [];
  for (const record of records) {
    const payload = record.payload as { key: string; kind: string; params?: { role: string; iteration: number }; result?: AgentCall['result'] };
    if (payload.kind !== 'agent.spawn') continue;
    if (record.type === 'effect.started' && payload.params) params.set(payload.key, payload.params);
    if (record.type === 'effect.completed' && payload.result) {
      const started = params.get(payload.key);
      calls.push({ role: started?.role ?? '?', iteration: started?.iteration ?? Number.NaN, result: payload.result });
    }
  }
  return calls;
}

const kinds = (records: JournalRecord[], type: string): string[] =>
  records.filter((record) => record.type === type).map((record) => (record.payload as { kind: string }).kind);

const ends = (records: JournalRecord[]): unknown[] =>
  records.filter((record) => record.type === 'run.finished' || record.type === 'run.paused').map((record) => record.payload);

/** What the ledger should hold after `script`: each CLI sums its turns (docs/agents.md), with its own gaps. */
function scriptTotals(cli: AgentCliName, usages: MockUsage[]): Omit<ReportedUsage, 'costUsd'> {
  const sum = (field: keyof MockUsage): number => usages.reduce((total, usage) => total + (usage[field] ?? 0), 0);
  const cacheWrite: Record<AgentCliName, number | null> = {
    claude: sum('cacheWrite'),
    codex: sum('cacheWrite'),
    // Gemini's protocol has no cache-write field, nor has Chat Completions (OpenCode and Qwen Code):
    // Qwen Code then reports none, OpenCode a 0 of its own.
    gemini: null,
    opencode: 0,
    qwen: null,
  };
  return {
    // OpenCode subtracts the cached tokens from the input the API reported.
    inputTokens: cli === 'opencode' ? sum('input') - sum('cacheRead') : sum('input'),
    outputTokens: sum('output'),
    cacheReadTokens: sum('cacheRead'),
    cacheWriteTokens: cacheWrite[cli],
  };
}

/**
 * The answers a CLI gets for one failing call: OpenCode (five retries) and Qwen Code (seven
 * attempts) retry a 429 or 5xx on their own, which no setting turns off; both wait the scripted
 * `retry-after-ms` (Qwen Code only for 429/503), so those retries are quick.
 */
function failingCall(cli: AgentCliName, status: number, message?: string): MockScript {
  const retried = status === 429 || status >= 500;
  const attempts = !retried ? 1 : cli === 'opencode' ? 6 : cli === 'qwen' ? 7 : 1;
  return Array.from({ length: attempts }, () => ({ error: { status, ...(message === undefined ? {} : { message }), ...(attempts > 1 ? { retryAfterMs: 10 } : {}) } }));
}

interface LedgerTotals extends ReportedUsage {
  calls: number;
  unknownCalls: number;
}

async function ledger(ws: Workspace): Promise<{ total: LedgerTotals; byRole: Record<string, LedgerTotals> }> {
  const result = await runYoke(ws, ['usage', '--json']);
  expect(result.exitCode, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as { total: LedgerTotals; byRole: Record<string, LedgerTotals> };
}

/** Every journaled call's usage is exactly what the CLI printed in that call's transcript; returns those reports. */
async function expectUsageAsReported(cli: AgentCliName, ws: Workspace, calls: AgentCall[]): Promise<ReportedUsage[]> {
  const reports: ReportedUsage[] = [];
  for (const call of calls) {
    const reported = cliReportedUsage(cli, await readFile(join(ws.path, '.loop', call.result.transcript), 'utf8'));
    if (reported === undefined) throw new Error(`${cli} reported no usage in .loop/${call.result.transcript}`);
    expect(call.result.usage).toMatchObject(reported);
    reports.push(reported);
  }
  return reports;
}

const usages = {
  code: { input: 1200, output: 40, cacheRead: 300, cacheWrite: 100 },
  notes: { input: 1500, output: 30, cacheRead: 900, cacheWrite: 50 },
  done: { input: 1700, output: 12, cacheRead: 1100, cacheWrite: 20 },
  verdict: { input: 800, output: 25, cacheRead: 0, cacheWrite: 200 },
  pass: { input: 900, output: 8, cacheRead: 600, cacheWrite: 0 },
} satisfies Record<string, MockUsage>;

/** The worker's call: write the code, then `STATUS: DONE`, through real tool calls; then a text turn. */
const workerTurns: MockScript = [
  { writeFile: { path: 'src/x.txt', content: 'hello from the model\n' }, usage: usages.code },
  { writeFile: { path: '.loop/notes.md', content: 'STATUS: DONE\n\nWrote src/x.txt.\n' }, usage: usages.notes },
  { text: 'Done: src/x.txt is written.', usage: usages.done },
];
const judgeTurns: MockScript = [
  { writeFile: { path: '.loop/verdict.md', content: 'VERDICT: PASS\n\nsrc/x.txt exists.\n' }, usage: usages.verdict },
  { text: 'VERDICT: PASS', usage: usages.pass },
];

/**
 * A committed project in `mode` driving `cli`. There is no notes.md yet: Claude Code's Write tool
 * refuses to overwrite a file it has not read in the same session, and the mock has no read turn.
 */

async function project(cli: AgentCliName, mode: 'loop' | 'brute', conf: string[]): Promise<Workspace> {
  const files: Record<string, string> = {
    // tool control is on (the default) unless a case says otherwise: every call goes through yoke's gate
    '.loop/yoke.conf': `${[`mode ${mode}`, `agent ${cli}`, `model ${models[cli]}`, 'guard code test -f src/x.txt', ...conf].join('\n')}\n`,
    '.loop/plan.md': '# Plan\n\nWrite src/x.txt.\n',
    '.loop/protocol.md': '# Protocol\n\nDo one step, then write .loop/notes.md.\n',
    '.loop/.gitignore': '.journal/\n.stash/\n',
  };
  if (mode === 'brute') files['.loop/judge.md'] = '# Judge\n\nPass when src/x.txt exists; write .loop/verdict.md.\n';
  const ws = await makeWorkspace(files);
  workspaces.push(ws);
  return ws;
}

const workspaces: Workspace[] = [];
const timings: Array<{ cli: AgentCliName; name: string; ms: number; firstRequestMs: number | undefined; outcomes: string[] }> = [];

afterAll(async () => {
  if (timings.length > 0) {
    const rows = timings.map((t) => `  ${t.cli.padEnd(7)} ${t.name.padEnd(8)} ${Math.round(t.ms).toString().padStart(6)} ms  (1st model request ${t.firstRequestMs ?? '-'} ms after the server started): ${t.outcomes.join('; ')}`);
    console.log(`yoke run with the real CLIs, wall time per case (server start excluded):\n${rows.join('\n')}`);
  }
  if (process.env.KEEP_E2E === '1') return;
  await Promise.all(workspaces.splice(0).map((ws) => ws.cleanup()));
});

/** `yoke run` offline in `ws` with `cli` against `script`; never a hang (the mock's run is killed at 150 s). */
async function yokeRun(cli: AgentCliName, name: string, ws: Workspace, script: MockScript): Promise<{ run: OfflineRunResult; records: JournalRecord[]; calls: AgentCall[] }> {
  const run = await runYokeOffline(cli, ws.path, ['run'], script);
  const records = await readJournal(ws);
  const calls = agentCalls(records);
  timings.push({ cli, name, ms: run.commandMs, firstRequestMs: run.requests[0]?.atMs, outcomes: calls.map((call) => `${call.result.classification}${call.result.detail === null ? '' : ` (${call.result.detail})`}`) });
  expect(run.timedOut, `yoke run timed out; stderr:\n${run.stderr}`).toBe(false);
  if (process.getuid?.() === 0) expect(run.isolated).toBe(true);
  expect(run.requests.every((request) => request.protocol !== null), 'every request reached a known endpoint').toBe(true);
  return { run, records, calls };
}

const turnRequests = (run: OfflineRunResult): number => run.requests.filter((request) => request.kind === 'turn').length;

for (const cli of Object.keys(models) as AgentCliName[]) {
  const installed = installedAgentCli(cli) !== undefined;
  const pin = agentCliPins[cli];
  const skip = !installed && !process.env.CI;
  if (skip) console.warn(`skipping the yoke + ${cli} tests: ${cli} ${pin.version} is not installed at ${agentCliBinary(cli)}; run bash scripts/install-agent-clis.sh (under CI this fails instead).`);
  const title = installed ? `yoke with ${cli} ${pin.version}` : `yoke with ${cli} ${pin.version} — not installed: run bash scripts/install-agent-clis.sh`;

  // The three CLIs run side by side (each CLI's cases one after another): mostly waiting on processes.
  describe.skipIf(skip)(title, { timeout: 180_000, concurrent: true }, () => {
    it.sequential('the CLI is installed (CI requires every pinned CLI)', () => {
      expect(installed, `${cli} missing at ${agentCliBinary(cli)}: run bash scripts/install-agent-clis.sh`).toBe(true);
      if (process.getuid?.() === 0) expect(loopbackNamespaceAvailable(), 'as root, unshare -n with a loopback must work').toBe(true);
    });

    it.sequential('loop: the worker writes the code and STATUS: DONE through tool calls, the guard passes, exit 0, usage exact', async () => {
      const ws = await project(cli, 'loop', ['max-iterations 2']);
      const { run, records, calls } = await yokeRun(cli, 'loop', ws, workerTurns);
      expect(run.exitCode, run.stderr).toBe(0);
      expect(await ws.read('src/x.txt')).toBe('hello from the model\n');
      expect(await ws.read('.loop/notes.md')).toMatch(/^STATUS: DONE\n/);
      expect(calls.map((call) => [call.role, call.iteration, call.result.classification])).toEqual([['worker', 1, 'ok']]);
      expect(ends(records)).toEqual([expect.objectContaining({ exitCode: 0 })]);
      expect(turnRequests(run)).toBe(3);

      const [reported] = await expectUsageAsReported(cli, ws, calls);
      const { total } = await ledger(ws);
      expect(total).toMatchObject({ calls: 1, unknownCalls: 0, ...scriptTotals(cli, [usages.code, usages.notes, usages.done]) });
      // Only claude prices its own calls (its `total_cost_usd`); the others' cost is unknown (no `price` here).
      expect(total.costUsd).toBe(reported!.costUsd);
      if (cli === 'claude') expect(total.costUsd).toBeGreaterThan(0);
      else expect(total.costUsd).toBeNull();
    });

    it.sequential('brute: the worker finishes, then the judge writes VERDICT: PASS through a tool call, exit 0', async () => {
      const ws = await project(cli, 'brute', ['max-iterations 2']);
      const { run, records, calls } = await yokeRun(cli, 'brute', ws, [...workerTurns, ...judgeTurns]);
      expect(run.exitCode, run.stderr).toBe(0);
      expect(await ws.read('.loop/verdict.md')).toMatch(/^VERDICT: PASS\n/);
      expect(calls.map((call) => [call.role, call.iteration, call.result.classification])).toEqual([['worker', 1, 'ok'], ['judge', 1, 'ok']]);
      expect(ends(records)).toEqual([expect.objectContaining({ exitCode: 0 })]);

      await expectUsageAsReported(cli, ws, calls);
      const { byRole } = await ledger(ws);
      expect(byRole.worker).toMatchObject({ calls: 1, ...scriptTotals(cli, [usages.code, usages.notes, usages.done]) });
      expect(byRole.judge).toMatchObject({ calls: 1, ...scriptTotals(cli, [usages.verdict, usages.pass]) });
    });

    it.sequential('401: the run is held (exit 1, run.paused agent:auth-error), stderr names the auth problem; the next yoke run retries', async () => {
      const ws = await project(cli, 'loop', ['max-iterations 2']);
      const { run, records, calls } = await yokeRun(cli, '401', ws, failingCall(cli, 401, 'invalid x-api-key'));
      expect(run.exitCode, run.stderr).toBe(1);
      expect(calls.map((call) => call.result.classification)).toEqual(['auth-error']);
      expect(calls[0]!.result.detail).toMatch(/401/);
      expect(ends(records)).toEqual([{ reason: 'agent:auth-error' }]);
      expect(run.stderr).toMatch(/could not authenticate/);
      expect(turnRequests(run)).toBe(1);

      // credentials fixed: the next `yoke run` makes the same call again and finishes
      const retried = await yokeRun(cli, '401→ok', ws, workerTurns);
      expect(retried.run.exitCode, retried.run.stderr).toBe(0);
      expect(retried.calls.map((call) => [call.role, call.iteration, call.result.classification])).toEqual([['worker', 1, 'auth-error'], ['worker', 1, 'ok']]);
      expect(await ws.read('src/x.txt')).toBe('hello from the model\n');
    });

    it.sequential('500: a server error, the iteration counts (max-iterations 1 → exit 1)', async () => {
      const ws = await project(cli, 'loop', ['max-iterations 1']);
      const script = failingCall(cli, 500);
      const { run, records, calls } = await yokeRun(cli, '500', ws, script);
      expect(run.exitCode, run.stderr).toBe(1);
      expect(calls.map((call) => call.result.classification)).toEqual(['server-error']);
      expect(ends(records)).toEqual([expect.objectContaining({ exitCode: 1, reason: expect.stringMatching(/max-iterations/) as unknown })]);
      expect(turnRequests(run)).toBe(script.length);
    });

    // yoke's idle timer runs from the spawn, and a CLI prints nothing while it starts: under load its
    // first model request came up to 9.5 s (claude, codex) and 13 s (gemini) after `yoke run` started,
    // so `idle-timeout 3s` killed claude and gemini before they ever asked the model (run 23:31 UTC).
    // opencode's first model request came 12–20 s after the spawn at load average 18–22 (run 15:40 UTC).
    const idle = cli === 'opencode' || cli === 'qwen' ? '30s' : cli === 'gemini' ? '20s' : '15s';
    it.sequential(`a silent hang: killed after idle-timeout ${idle}, journaled as idle-timeout`, async () => {
      const ws = await project(cli, 'loop', ['max-iterations 1', `idle-timeout ${idle}`]);
      const { run, records, calls } = await yokeRun(cli, 'hang', ws, [{ hang: true }]);
      expect(run.exitCode, run.stderr).toBe(1);
      expect(calls.map((call) => call.result.classification)).toEqual(['idle-timeout']);
      expect(ends(records)).toEqual([expect.objectContaining({ exitCode: 1, reason: expect.stringMatching(/max-iterations/) as unknown })]);
      // the CLI really was waiting on the model, not still starting up
      expect(turnRequests(run)).toBe(1);
    });

    if (cli === 'claude') {
      // acceptEdits lets claude 2.1.332 run plain file commands (`echo ran > ran.txt` ran); running a program is refused.
      // With tool control on, yoke's gate rules instead (an `exec` passes): this is the CLI's own refusal, so it is off.
      it.sequential('a denied tool call: Bash running node under acceptEdits is refused → permission-denied, the files decide', async () => {
        const ws = await project(cli, 'loop', ['max-iterations 1', 'tool-control off']);
        const ranCommand = `node -e "require('fs').writeFileSync('ran.txt', 'ran')"`;
        const { run, records, calls } = await yokeRun(cli, 'denied', ws, [{ runCommand: { command: ranCommand } }, { text: 'I could not run it.' }]);
        expect(run.exitCode, run.stderr).toBe(1);
        expect(await ws.exists('ran.txt')).toBe(false);
        expect(calls.map((call) => call.result.classification)).toEqual(['permission-denied']);
        expect(calls[0]!.result.detail).toBe(`1 tool call was denied: Bash ${ranCommand}`);
        expect(ends(records)).toEqual([expect.objectContaining({ exitCode: 1, reason: expect.stringMatching(/max-iterations/) as unknown })]);
      });
    }
    if (cli === 'opencode') {
      // OpenCode's default permissions ask before touching a path outside the project; `run` rejects what would ask.
      // With tool control on, yoke's gate refuses that write first (protected): this is OpenCode's own refusal, so it is off.
      it.sequential('a refused tool call: a write outside the project is rejected by `opencode run` → permission-denied, the files decide', async () => {
        const outside = join(tmpdir(), `yoke-opencode-outside-${process.pid}.txt`);
        const ws = await project(cli, 'loop', ['max-iterations 1', 'tool-control off']);
        const { run, records, calls } = await yokeRun(cli, 'refused', ws, [{ writeFile: { path: outside, content: 'x\n' } }, { text: 'I could not write it.' }]);
        expect(run.exitCode, run.stderr).toBe(1);
        expect(existsSync(outside)).toBe(false);
        expect(calls.map((call) => call.result.classification)).toEqual(['permission-denied']);
        expect(calls[0]!.result.detail).toBe(`1 tool call was refused without asking (opencode run rejects what needs a permission prompt): write ${outside}`);
        expect(ends(records)).toEqual([expect.objectContaining({ exitCode: 1, reason: expect.stringMatching(/max-iterations/) as unknown })]);
      });
    }
    // codex (`--sandbox workspace-write`, exec never asks for approval), gemini and qwen
    // (`--approval-mode yolo`) approve every tool call with yoke's production flags: no denial of
    // their own can be provoked (yoke's gate refusing them: tool-control-codex-gemini-real-cli.test.ts).

    it.sequential('429: the run waits (wait.until, rate-limit-wait 1s), retries the same call and succeeds without spending an iteration', async () => {
      const ws = await project(cli, 'loop', ['max-iterations 1', 'rate-limit-wait 1s']);
      const { run, records, calls } = await yokeRun(cli, '429', ws, [...failingCall(cli, 429, 'rate limit exceeded'), ...workerTurns]);
      expect(run.exitCode, run.stderr).toBe(0);
      expect(calls.map((call) => [call.role, call.iteration, call.result.classification])).toEqual([['worker', 1, 'rate-limited'], ['worker', 1, 'ok']]);
      // the wait is journaled between the two calls and ends rate-limit-wait after the limited call ended
      const completed = kinds(records, 'effect.completed');
      expect(completed.indexOf('wait.until')).toBeGreaterThan(completed.indexOf('agent.spawn'));
      expect(completed.lastIndexOf('agent.spawn')).toBeGreaterThan(completed.indexOf('wait.until'));
      const wait = records.find((record) => record.type === 'effect.started' && (record.payload as { kind: string }).kind === 'wait.until');
      // OpenCode passes the API's retry-after-ms on (10 ms here); the others name no wait.
      expect((wait?.payload as { params: { until: number } }).params.until - calls[0]!.result.endedAt).toBe(cli === 'opencode' ? 10 : 1000);
      expect(ends(records)).toEqual([expect.objectContaining({ exitCode: 0 })]);
      expect(await ws.read('src/x.txt')).toBe('hello from the model\n');
    });
  });
}
