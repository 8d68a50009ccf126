// The real Claude Code, Codex, Gemini, OpenCode and Qwen Code CLIs (pinned, installed by scripts/install-agent-clis.sh),
// run directly with yoke's production command lines, non-interactively in a temp git repo, stdin
// closed, against the scripted mock model server, inside a loopback-only network namespace when
// root. A CLI that is not installed is skipped with the reason in the test name, except under CI,
// where that fails. Wall time per call is printed at the end (see the mock server's README.md).
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { agentCliBinary, agentCliPins, installedAgentCli, mockChatModel, offlineAgentEnv, type AgentCliName } from '../support/agent-clis.js';
import type { MockScript } from '../support/mock-model-server/mock-script.js';
import { loopbackNamespaceAvailable, runOffline, type OfflineRunResult } from '../support/mock-model-server/run-offline.js';
import { toolOutputsIn } from '../support/mock-model-server/tool-outputs.js';

/** What the tests read from one CLI call, whatever the CLI. */
interface CliReport {
  /** the final assistant text, if any */
  text: string | undefined;
  usage: { input: number; output: number; cacheRead: number; cacheWrite: number | undefined } | undefined;
  /** the CLI's own error text when it reports a failure */
  error: string | undefined;
}

interface CliCase {
  model: string;
  /** the production command line's arguments (README of /work/shared/agents), prompt included */
  args(prompt: string, model: string): string[];
  report(run: OfflineRunResult): CliReport;
  /** the exit code after an HTTP error status */
  errorExit(status: number): number;
  /**
   * How many requests the CLI makes on an HTTP error status before it gives up: 1 for those
   * configured not to retry; OpenCode and Qwen Code retry 429 and 5xx on their own, which no
   * setting turns off (OpenCode honours the scripted retry-after-ms, so its retries are quick).
   */
  errorAttempts(status: number): number;
  /** OpenCode's input excludes the cached tokens; the others report the API's input as it is */
  inputExcludesCacheReads?: boolean;
  /** what the CLI's error text says after an HTTP error status */
  errorText(status: number): RegExp;
}

type Json = Record<string, unknown>;

function jsonLines(text: string): Json[] {
  return text.split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as Json);
}

const cases: Record<AgentCliName, CliCase> = {
  claude: {
    model: 'claude-sonnet-4-5',
    args: (prompt, model) => ['-p', prompt, '--output-format', 'stream-json', '--verbose', '--permission-mode', 'acceptEdits', '--model', model],
    report(run) {
      const result = jsonLines(run.stdout).find((line) => line.type === 'result');
      const usage = result?.usage as Record<string, number> | undefined;
      return {
        text: result?.is_error === false ? (result.result as string) : undefined,
        usage: usage && {
          input: usage.input_tokens ?? Number.NaN, output: usage.output_tokens ?? Number.NaN,
          cacheRead: usage.cache_read_input_tokens ?? Number.NaN, cacheWrite: usage.cache_creation_input_tokens,
        },
        error: result?.is_error === true ? `${String(result.api_error_status)} ${String(result.result)}` : undefined,
      };
    },
    errorExit: () => 1,
    errorAttempts: () => 1,
    // `api_error_status` and `result`, e.g. "401 Failed to authenticate. API Error: 401 mock error 401"
    errorText: (status) => new RegExp(`^${status} .*API Error: ${status} mock error ${status}`),
  },
  codex: {
    model: 'gpt-5.5',
    args: (prompt, model) => ['exec', '--json', '--skip-git-repo-check', '--sandbox', 'workspace-write', '-m', model, prompt],
    report(run) {
      const lines = jsonLines(run.stdout);
      const messages = lines.filter((line) => line.type === 'item.completed' && (line.item as Json).type === 'agent_message');
      const usage = lines.find((line) => line.type === 'turn.completed')?.usage as Record<string, number> | undefined;
      const failed = lines.find((line) => line.type === 'turn.failed');
      return {
        text: messages.map((line) => (line.item as Json).text as string).at(-1),
        usage: usage && {
          input: usage.input_tokens ?? Number.NaN, output: usage.output_tokens ?? Number.NaN,
          cacheRead: usage.cached_input_tokens ?? Number.NaN, cacheWrite: usage.cache_write_input_tokens,
        },
        error: failed && ((failed.error as Json).message as string),
      };
    },
    errorExit: () => 1,
    errorAttempts: () => 1,
    // A 5xx message does not carry the status: codex replaces it with its own overload text.
    errorText: (status) => (status >= 500 ? /high demand/ : new RegExp(`unexpected status ${status} .*mock error ${status}`)),
  },
  gemini: {
    model: 'gemini-2.5-pro',
    args: (prompt, model) => ['-p', prompt, '--output-format', 'stream-json', '--approval-mode', 'yolo', '-m', model],
    report(run) {
      const lines = jsonLines(run.stdout);
      const result = lines.find((line) => line.type === 'result');
      const stats = result?.stats as Record<string, number> | undefined;
      const text = lines.filter((line) => line.type === 'message' && line.role === 'assistant').map((line) => line.content as string).join('');
      return {
        text: result?.status === 'success' ? text : undefined,
        usage: stats && { input: stats.input_tokens ?? Number.NaN, output: stats.output_tokens ?? Number.NaN, cacheRead: stats.cached ?? Number.NaN, cacheWrite: undefined },
        error: result?.status === 'error' ? ((result.error as Json).message as string) : undefined,
      };
    },
    // Gemini exits with the HTTP status modulo 256.
    errorExit: (status) => status % 256,
    errorAttempts: () => 1,
    errorText: (status) => new RegExp(`"code":${status},"message":"mock error ${status}"`),
  },
  opencode: {
    model: `mock/${mockChatModel}`,
    args: (prompt, model) => ['run', '--format', 'json', '-m', model, prompt],
    report(run) {
      const lines = jsonLines(run.stdout);
      const steps = lines.filter((line) => line.type === 'step_finish').map((line) => (line.part as Json).tokens as { input: number; output: number; cache: { read: number; write: number } });
      const error = lines.find((line) => line.type === 'error')?.error as { data?: { statusCode?: number; message?: string } } | undefined;
      const sum = (read: (tokens: (typeof steps)[number]) => number): number => steps.reduce((total, tokens) => total + read(tokens), 0);
      return {
        text: error === undefined ? lines.filter((line) => line.type === 'text').map((line) => (line.part as Json).text as string).at(-1) : undefined,
        // the Chat Completions API has no cache-write field: OpenCode's 0 there says nothing
        usage: steps.length === 0 ? undefined : { input: sum((t) => t.input), output: sum((t) => t.output), cacheRead: sum((t) => t.cache.read), cacheWrite: undefined },
        error: error && `${String(error.data?.statusCode)} ${String(error.data?.message)}`,
      };
    },
    errorExit: () => 1,
    errorAttempts: (status) => (status === 429 || status >= 500 ? 6 : 1),
    inputExcludesCacheReads: true,
    errorText: (status) => new RegExp(`^${status} mock error ${status}$`),
  },
  qwen: {
    model: mockChatModel,
    args: (prompt, model) => [prompt, '--output-format', 'stream-json', '--approval-mode', 'yolo', '-m', model],
    report(run) {
      const result = jsonLines(run.stdout).find((line) => line.type === 'result');
      const usage = result?.usage as Record<string, number> | undefined;
      return {
        text: result?.is_error === false ? (result.result as string) : undefined,
        usage: usage && { input: usage.input_tokens ?? Number.NaN, output: usage.output_tokens ?? Number.NaN, cacheRead: usage.cache_read_input_tokens ?? Number.NaN, cacheWrite: undefined },
        error: result?.is_error === true ? ((result.error as Json).message as string) : undefined,
      };
    },
    errorExit: () => 1,
    errorAttempts: (status) => (status === 429 || status >= 500 ? 7 : 1),
    errorText: (status) => new RegExp(`^\\[API Error: ${status} mock error ${status}\\]`),
  },
};

const timings: Array<{ cli: AgentCliName; call: string; ms: number; isolated: boolean }> = [];

afterAll(() => {
  if (timings.length === 0) return;
  const rows = timings.map((t) => `  ${t.cli.padEnd(7)} ${t.call.padEnd(12)} ${Math.round(t.ms).toString().padStart(6)} ms${t.isolated ? '' : ' (not isolated)'}`);
  console.log(`real CLI wall time per call (server start excluded):\n${rows.join('\n')}`);
});

async function tempRepo(): Promise<{ path: string; cleanup: () => Promise<void> }> {
  const root = await mkdtemp(join(tmpdir(), 'yoke-real-cli-'));
  const path = join(root, 'repo');
  const git = (args: string[]): void => {
    const result = spawnSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', ...args], { cwd: root, encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${result.stderr}`);
  };
  git(['init', '-q', path]);
  git(['-C', path, 'commit', '-q', '--allow-empty', '-m', 'init']);
  return { path, cleanup: () => rm(root, { recursive: true, force: true }) };
}

/** Run `name` once on `prompt` against `script` in a fresh repo; returns the run, its report and the repo path. */
async function callCli(name: AgentCliName, call: string, script: MockScript, prompt: string, inspect: (run: OfflineRunResult, report: CliReport, repo: string) => Promise<void>): Promise<void> {
  const bin = installedAgentCli(name);
  if (bin === undefined) throw new Error(`${name} is not installed at ${agentCliBinary(name)}; run bash scripts/install-agent-clis.sh.`);
  const repo = await tempRepo();
  const cleanups: Array<() => Promise<void>> = [repo.cleanup];
  try {
    const run = await runOffline({
      script,
      timeoutMs: 150_000,
      command: async (baseUrl) => {
        const isolated = await offlineAgentEnv(name, baseUrl);
        cleanups.push(isolated.cleanup);
        return { file: bin, args: cases[name].args(prompt, cases[name].model), env: isolated.env, cwd: repo.path };
      },
    });
    timings.push({ cli: name, call, ms: run.commandMs, isolated: run.isolated });
    expect(run.timedOut, `${name} timed out; stderr:\n${run.stderr}`).toBe(false);
    if (process.getuid?.() === 0) expect(run.isolated).toBe(true);
    expect(run.requests.every((request) => request.protocol !== null), 'every request reached a known endpoint').toBe(true);
    await inspect(run, cases[name].report(run), repo.path);
  } finally {
    for (const cleanup of cleanups) await cleanup();
  }
}

const usage = { input: 1234, output: 56, cacheRead: 200, cacheWrite: 100 };

for (const name of Object.keys(cases) as AgentCliName[]) {
  const installed = installedAgentCli(name) !== undefined;
  const pin = agentCliPins[name];
  const title = installed ? `${name} ${pin.version}` : `${name} ${pin.version} — not installed: run bash scripts/install-agent-clis.sh`;
  const skip = !installed && !process.env.CI;
  if (skip) console.warn(`skipping the ${name} real-CLI tests: ${name} ${pin.version} is not installed at ${agentCliBinary(name)}; run bash scripts/install-agent-clis.sh (under CI this fails instead).`);

  // Qwen Code's own seven attempts at a 500 take about a minute (it ignores retry-after for a 500).
  describe.skipIf(skip)(title, { timeout: 180_000 }, () => {
    it('is installed (CI requires every pinned CLI)', () => {
      expect(installed, `${name} missing at ${agentCliBinary(name)}: run bash scripts/install-agent-clis.sh`).toBe(true);
      if (process.getuid?.() === 0) expect(loopbackNamespaceAvailable(), 'as root, unshare -n with a loopback must work').toBe(true);
    });

    it('(a) a text turn reports the scripted usage exactly', async () => {
      await callCli(name, 'text', [{ text: 'STATUS: DONE', usage }], 'Say STATUS: DONE', async (run, report) => {
        expect(run.exitCode, run.stderr).toBe(0);
        expect(report.error).toBeUndefined();
        expect(report.text).toBe('STATUS: DONE');
        const input = cases[name].inputExcludesCacheReads === true ? usage.input - usage.cacheRead : usage.input;
        expect(report.usage).toMatchObject({ input, output: usage.output, cacheRead: usage.cacheRead });
        // Claude and Codex carry cache writes; the Gemini and Chat Completions protocols have no such field.
        if (report.usage?.cacheWrite !== undefined) expect(report.usage.cacheWrite).toBe(usage.cacheWrite);
        expect(run.requests.filter((request) => request.kind === 'turn')).toHaveLength(1);
        await Promise.resolve();
      });
    });

    it('(b) a writeFile tool turn, then a text turn: the file is written and its result goes back', async () => {
      const script: MockScript = [
        { writeFile: { path: 'notes.md', content: 'STATUS: DONE\n' }, usage: { input: 100, output: 10 } },
        { text: 'STATUS: DONE', usage: { input: 200, output: 20 } },
      ];
      await callCli(name, 'write+text', script, 'Write notes.md', async (run, report, repo) => {
        expect(run.exitCode, run.stderr).toBe(0);
        expect(await readFile(join(repo, 'notes.md'), 'utf8')).toBe('STATUS: DONE\n');
        expect(report.text).toBe('STATUS: DONE');
        expect(report.usage).toMatchObject({ input: 300, output: 30 });
        const turns = run.requests.filter((request) => request.kind === 'turn');
        expect(turns.map((request) => request.turn)).toEqual([0, 1]);
        expect(toolOutputsIn(turns[0]!)).toEqual([]);
        expect(toolOutputsIn(turns[1]!)).toHaveLength(1);
      });
    });

    it('(b2) a runCommand tool turn, then a text turn: the command ran in the repo', async () => {
      const script: MockScript = [{ runCommand: { command: 'echo ran > ran.txt' } }, { text: 'STATUS: DONE' }];
      await callCli(name, 'run+text', script, 'Run the command', async (run, report, repo) => {
        expect(run.exitCode, run.stderr).toBe(0);
        expect(await readFile(join(repo, 'ran.txt'), 'utf8')).toBe('ran\n');
        expect(report.text).toBe('STATUS: DONE');
        expect(toolOutputsIn(run.requests.filter((request) => request.kind === 'turn')[1]!)).toHaveLength(1);
      });
    });

    for (const status of [401, 500]) {
      const attempts = cases[name].errorAttempts(status);
      const retries = attempts === 1 ? 'no retry' : `after the CLI's own ${attempts - 1} retries`;
      it(`(${status === 401 ? 'c' : 'd'}) a ${status} fails with the CLI's own error fields, ${retries}`, async () => {
        const errors: MockScript = Array.from({ length: attempts }, () => ({ error: attempts === 1 ? { status } : { status, retryAfterMs: 10 } }));
        await callCli(name, `error ${status}`, [...errors, { text: 'must not be reached' }], 'Say STATUS: DONE', async (run, report) => {
          expect(run.exitCode, run.stderr).toBe(cases[name].errorExit(status));
          expect(report.text).toBeUndefined();
          expect(report.error).toMatch(cases[name].errorText(status));
          expect(run.requests.filter((request) => request.kind === 'turn')).toHaveLength(attempts);
          await Promise.resolve();
        });
      });
    }
  });
}
