// The private plugin a gated run's opencode call loads (DESIGN §13: hooks go in through the CLI's own
// flags or a private settings location, never the project's opencode.json or .opencode/). OpenCode
// 1.18 runs no hook command; a plugin's `tool.execute.before` runs before every tool call (built-in
// and MCP) and a throw blocks the call, its message reaching the model as the tool's error. So each
// call gets a fresh 0700 folder holding a plugin that asks `yoke gate` for each ruling, loaded through
// `OPENCODE_CONFIG_CONTENT` (the user's own value kept, the plugin appended). The plugin imports
// nothing but node:child_process and lives outside every OpenCode config folder, so OpenCode installs
// nothing for it; `OPENCODE_PURE=false` keeps an inherited `OPENCODE_PURE` from dropping it. Checked
// on the installed CLI (docs/tool-control.md).
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser';

/** opencode's variable for inline config (merged over its config files). */
export const OPENCODE_CONFIG_CONTENT_ENV = 'OPENCODE_CONFIG_CONTENT';

/** A prepared private plugin, the variables that load it, and how to remove it. */
export interface OpencodeGatePlugin {
  /** OPENCODE_CONFIG_CONTENT and OPENCODE_PURE for the call */
  env: Record<string, string>;
  /** set when the inherited OPENCODE_CONFIG_CONTENT could not be read (the call gets the plugin alone) */
  warning: string | null;
  cleanup(): Promise<void>;
}

/**
 * The plugin's source: for each tool call it runs `command` (through `sh -c`) with Claude-style hook
 * JSON on stdin (`tool_name`, `tool_input`, `tool_use_id`, `cwd`) and lets the call run only on
 * `{"decision":"allow"}`; anything else (a denial, no answer, a crash, 30 s) throws: fail closed.
 */
export function opencodeGatePluginSource(command: string): string {
  return `// yoke's tool-call gate for OpenCode, written by yoke for one agent call (docs/tool-control.md).
import { spawn } from 'node:child_process';

const COMMAND = ${JSON.stringify(command)};

function ask(question) {
  return new Promise((resolve) => {
    const child = spawn('/bin/sh', ['-c', COMMAND], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), 30000);
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (chunk) => { stdout += chunk; });
    child.stderr.on('data', (chunk) => { stderr += chunk; });
    child.on('error', (error) => { clearTimeout(timer); resolve({ status: null, stdout, stderr: String(error) }); });
    child.on('close', (status) => { clearTimeout(timer); resolve({ status, stdout, stderr }); });
    child.stdin.on('error', () => {});
    child.stdin.end(question);
  });
}

export const YokeGate = async ({ directory }) => ({
  'tool.execute.before': async (input, output) => {
    const question = JSON.stringify({ tool_name: input.tool, tool_input: output.args, tool_use_id: input.callID ?? null, cwd: directory });
    const run = await ask(question);
    let answer = null;
    try { answer = JSON.parse(run.stdout); } catch { answer = null; }
    if (run.status === 0 && answer !== null && answer.decision === 'allow') return;
    if (answer !== null && typeof answer.reason === 'string' && answer.reason !== '') throw new Error(answer.reason);
    throw new Error('refused: yoke could not rule on this tool call (its gate ' + (run.status === null ? 'did not run' : 'exited ' + run.status) + (run.stderr.trim() === '' ? '' : ': ' + run.stderr.trim().split('\\n').pop()) + '), so it refuses it.');
  },
});
`;
}

/**
 * `inherited` (the user's OPENCODE_CONFIG_CONTENT, JSONC as opencode reads it) with `plugin` appended
 * to its `plugin` list, or the plugin alone and why when it cannot be read.
 */
export function withGatePlugin(inherited: string | undefined, plugin: string): { content: string; warning: string | null } {
  if (inherited === undefined || inherited.trim() === '') return { content: JSON.stringify({ plugin: [plugin] }), warning: null };
  const errors: ParseError[] = [];
  const value: unknown = parse(inherited, errors);
  if (errors[0] !== undefined || typeof value !== 'object' || value === null || Array.isArray(value)) {
    const why = errors[0] !== undefined ? `${printParseErrorCode(errors[0].error)} at offset ${errors[0].offset}` : 'not a JSON object';
    return { content: JSON.stringify({ plugin: [plugin] }), warning: `the inherited ${OPENCODE_CONFIG_CONTENT_ENV} could not be read (${why}): the call runs with yoke's tool plugin instead of it.` };
  }
  const config = value as Record<string, unknown>;
  const plugins: unknown[] = Array.isArray(config.plugin) ? (config.plugin as unknown[]) : [];
  return { content: JSON.stringify({ ...config, plugin: [...plugins, plugin] }), warning: null };
}

/** Writes the private plugin for a call whose environment is `env`. */
export async function prepareOpencodeGatePlugin(command: string, env: NodeJS.ProcessEnv): Promise<OpencodeGatePlugin> {
  const dir = await mkdtemp(join(tmpdir(), 'yoke-opencode-gate-'));
  await chmod(dir, 0o700);
  const file = join(dir, 'yoke-gate.js');
  await writeFile(file, opencodeGatePluginSource(command), { mode: 0o600 });
  const { content, warning } = withGatePlugin(env[OPENCODE_CONFIG_CONTENT_ENV], pathToFileURL(file).href);
  return {
    env: { [OPENCODE_CONFIG_CONTENT_ENV]: content, OPENCODE_PURE: 'false' },
    warning,
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
}
