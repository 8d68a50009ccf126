// After `yoke retrofit`, each real CLI (Claude Code 2.1.332, Codex 0.171.0, Gemini CLI 0.61.0) reads
// what it installed, proven on the model request the mock server received: the canon's AGENTS.md
// lines are in it, the canon's skills are listed where the CLI lists skills, Gemini expands a
// /yoke:<skill> command, and a tool call runs the generated hook command `yoke gate --agent <cli>`.
// The hook proof puts a recording `yoke` first on PATH (the CLI runs whatever the settings name);
// then the real `yoke gate` rules a destructive call and Claude refuses it (the last case).
import { chmod, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentCliBinary, agentCliPins, installedAgentCli, offlineAgentEnv } from '../support/agent-clis.js';
import type { RetrofitAgent } from '../../machines/retrofit/retrofit-agents.js';
import { cleanupAfterEach } from '../support/e2e-cleanup.js';
import type { MockScript } from '../support/mock-model-server/mock-script.js';
import { runOffline, type OfflineRunResult } from '../support/mock-model-server/run-offline.js';
import { makeWorkspace, runYoke, type Workspace } from '../support/workspace.js';
import { repoRoot, yokeBin } from '../support/yoke-process.js';

const leftovers = cleanupAfterEach();

/** A line of canon/AGENTS.md that only the canon says. */
const MARKER = "3. The user's explicit instruction beats any skill. Never run two skills for the same concern.";

const args: Record<RetrofitAgent, (prompt: string) => string[]> = {
  claude: (prompt) => ['-p', prompt, '--output-format', 'stream-json', '--verbose', '--permission-mode', 'acceptEdits', '--model', 'claude-sonnet-4-5'],
  // Codex runs a project's hooks only when the project is trusted and the hook reviewed; in exec the
  // review is --dangerously-bypass-hook-trust (an interactive session asks the user instead).
  codex: (prompt) => ['exec', '--json', '--skip-git-repo-check', '--sandbox', 'workspace-write', '-m', 'gpt-5.5', '--dangerously-bypass-hook-trust', prompt],
  gemini: (prompt) => ['-p', prompt, '--output-format', 'stream-json', '--approval-mode', 'yolo', '-m', 'gemini-2.5-pro'],
};

/** A `yoke` that records each hook call (argv, stdin) in the side folder and allows the call. */
async function recordingYoke(ws: Workspace): Promise<string> {
  const bin = join(ws.sideDir, 'bin');
  await mkdir(bin, { recursive: true });
  const calls = ws.side('calls');
  await mkdir(calls, { recursive: true });
  const script = [
    '#!/bin/sh',
    `out=$(mktemp "${calls}/call-XXXXXX")`,
    'printf "%s\\n" "$*" > "$out"',
    'cat >> "$out"',
    'case "$*" in *gemini*) printf \'{"decision":"allow"}\\n\';; *) printf \'{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}\\n\';; esac',
    '',
  ].join('\n');
  await writeFile(join(bin, 'yoke'), script);
  await chmod(join(bin, 'yoke'), 0o755);
  return bin;
}

/** The hook calls recorded: argv line and the payload. */
async function hookCalls(ws: Workspace): Promise<Array<{ argv: string; payload: Record<string, unknown> }>> {
  const dir = ws.side('calls');
  const names = (await readdir(dir)).sort();
  return Promise.all(names.map(async (name) => {
    const [argv = '', ...rest] = (await readFile(join(dir, name), 'utf8')).split('\n');
    return { argv, payload: JSON.parse(rest.join('\n')) as Record<string, unknown> };
  }));
}

async function runCli(cli: RetrofitAgent, ws: Workspace, prompt: string, script: MockScript, pathFirst: string): Promise<OfflineRunResult> {
  const cleanups: Array<() => Promise<void>> = [];
  try {
    return await runOffline({
      script,
      timeoutMs: 120_000,
      command: async (baseUrl) => {
        const isolated = await offlineAgentEnv(cli, baseUrl);
        cleanups.push(isolated.cleanup);
        if (cli === 'codex') await writeFile(join(isolated.env.CODEX_HOME ?? '', 'config.toml'), `${await readFile(join(isolated.env.CODEX_HOME ?? '', 'config.toml'), 'utf8')}\n[projects."${ws.path}"]\ntrust_level = "trusted"\n`);
        return { file: installedAgentCli(cli)!, args: args[cli](prompt), env: { ...isolated.env, PATH: `${pathFirst}:${isolated.env.PATH ?? ''}` }, cwd: ws.path };
      },
    });
  } finally {
    for (const cleanup of cleanups) await cleanup();
  }
}

const turnBody = (run: OfflineRunResult, index = 0): string => JSON.stringify(run.requests.filter((request) => request.kind === 'turn')[index]?.body ?? null);

/**
 * Each CLI's project starts with files of its own, so the proof covers the merges: Claude Code reads
 * AGENTS.md by itself only when there is no CLAUDE.md (checked), so the user's CLAUDE.md must import
 * it; Gemini's own context.fileName must gain AGENTS.md and keep GEMINI.md.
 */
const ownFiles: Record<RetrofitAgent, Record<string, string>> = {
  claude: { 'CLAUDE.md': 'Our own rules: USER-CLAUDE-LINE.\n', '.claude/settings.json': '{ "permissions": { "allow": ["Bash(make test)"] } }\n' },
  codex: { 'AGENTS.md': 'Our agents file: USER-AGENTS-LINE.\n' },
  gemini: { 'GEMINI.md': 'Our Gemini notes: USER-GEMINI-LINE.\n', '.gemini/settings.json': '{\n  // ours\n  "context": { "fileName": "GEMINI.md" }\n}\n' },
};
const ownLine: Record<RetrofitAgent, string> = { claude: 'USER-CLAUDE-LINE', codex: 'USER-AGENTS-LINE', gemini: 'USER-GEMINI-LINE' };

async function retrofitted(cli: RetrofitAgent): Promise<Workspace> {
  const ws = await makeWorkspace({ 'keep/file.txt': 'tracked\n', ...ownFiles[cli] });
  leftovers.workspaces.push(ws);
  const result = await runYoke(ws, ['retrofit', '--agent', cli]);
  expect(result.exitCode, result.stderr + result.stdout).toBe(0);
  return ws;
}

const review = { description: '', body: '' };

for (const cli of ['claude', 'codex', 'gemini'] as const) {
  const installed = installedAgentCli(cli) !== undefined;
  const skip = !installed && !process.env.CI;
  if (skip) console.warn(`skipping the ${cli} retrofit proofs: ${cli} ${agentCliPins[cli].version} is not installed at ${agentCliBinary(cli)}; run bash scripts/install-agent-clis.sh.`);

  describe.skipIf(skip)(`after yoke retrofit --agent ${cli}, ${cli} ${agentCliPins[cli].version}`, { timeout: 150_000 }, () => {
    it('sends the canon\'s AGENTS.md and its skills to the model, and its tool call runs `yoke gate --agent ' + cli + '`', async () => {
      expect(await readFile(join(repoRoot, 'canon', 'AGENTS.md'), 'utf8')).toContain(MARKER);
      const skill = await readFile(join(repoRoot, 'canon', 'skills', 'review', 'SKILL.md'), 'utf8');
      review.description = /^description: (.*)$/m.exec(skill)?.[1] ?? '';
      const ws = await retrofitted(cli);
      const bin = await recordingYoke(ws);
      const run = await runCli(cli, ws, 'Run the command', [{ runCommand: { command: 'echo ran > ran.txt' } }, { text: 'done' }], bin);
      expect(run.timedOut, run.stderr).toBe(false);
      expect(run.exitCode, run.stderr).toBe(0);
      const body = turnBody(run);
      expect(body, 'the canon baseline reaches the model').toContain(MARKER);
      expect(body, 'the project\'s own instructions still do').toContain(ownLine[cli]);
      expect(body, 'the review skill is listed with its description').toContain(review.description);
      expect(body).toContain('maintaining-context');

      expect(await readFile(ws.abs('ran.txt'), 'utf8')).toBe('ran\n');
      const calls = await hookCalls(ws);
      expect(calls.length, 'the generated hook ran').toBeGreaterThanOrEqual(1);
      expect(calls[0]?.argv).toBe(`gate --agent ${cli}`);
      expect(calls[0]?.payload).toMatchObject({ hook_event_name: cli === 'gemini' ? 'BeforeTool' : 'PreToolUse', cwd: ws.path });
    });

    if (cli === 'gemini') {
      it('expands /yoke:review from .gemini/commands/yoke/review.toml into the skill\'s text', async () => {
        const ws = await retrofitted(cli);
        const bin = await recordingYoke(ws);
        const run = await runCli(cli, ws, '/yoke:review the last commit', [{ text: 'done' }], bin);
        expect(run.exitCode, run.stderr).toBe(0);
        const body = turnBody(run);
        expect(body).toContain('You review a change you did not write.');
        expect(body).toContain('/yoke:review the last commit');
      });
    }
  });
}

const claudeInstalled = installedAgentCli('claude') !== undefined;

describe.skipIf(!claudeInstalled && !process.env.CI)('after yoke retrofit --agent claude, with the real yoke on PATH', { timeout: 150_000 }, () => {
  it('Claude\'s destructive tool call reaches `yoke gate`, which refuses it: the tracked files stay', async () => {
    const ws = await retrofitted('claude');
    const bin = join(ws.sideDir, 'real-bin');
    await mkdir(bin, { recursive: true });
    await writeFile(join(bin, 'yoke'), `#!/bin/sh\nexec "${process.execPath}" "${yokeBin}" "$@"\n`);
    await chmod(join(bin, 'yoke'), 0o755);
    const run = await runCli('claude', ws, 'Clean up', [{ runCommand: { command: 'rm -rf keep' } }, { text: 'done' }], bin);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(await readFile(ws.abs('keep/file.txt'), 'utf8')).toBe('tracked\n');
    // the refusal reaches the model naming its class (DESIGN §13), not a failed hook command
    const next = turnBody(run, 1);
    expect(next).toContain('destructive');
    expect(next).not.toContain('unknown command');
  });
});
