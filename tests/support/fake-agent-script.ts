// The fake agent's script format (see fake-agent.mjs), writing a script, and reading its call log.
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { repoRoot } from './yoke-process.js';

/** Absolute path of the scripted fake agent. */
export const fakeAgentPath = join(repoRoot, 'tests', 'support', 'fake-agent.mjs');

/** One object of actions; they run in key order. */
export interface FakeActions {
  write?: Record<string, string>;
  append?: Record<string, string>;
  delete?: string[];
  notes?: 'DONE' | 'IN_PROGRESS' | { status: string; body?: string };
  recordFile?: { path: string; to: string } | { path: string; to: string }[];
  recordPrompt?: string;
  usage?: Record<string, unknown>;
  stdout?: string;
  stderr?: string;
  sleepMs?: number;
  spawnGrandchild?: boolean;
  hang?: boolean;
  exitCode?: number;
}

/** What one agent call does: one object of actions, or several run one after another. */
export type FakeStep = FakeActions | FakeActions[];

export interface FakeScript {
  /** the step for calls whose iteration has no entry in `steps` */
  default?: FakeStep;
  /** iteration number (as a string) → step */
  steps?: Record<string, FakeStep>;
  /** a separate script per role (judge, scoper); the top level serves the others */
  roles?: Record<string, Omit<FakeScript, 'roles'>>;
}

/** One line of the call log, appended by the fake agent at the start of every call. */
export interface AgentCall {
  call: string | null;
  role: string;
  iteration: number;
  run: string | null;
  pid: number;
  loopDir: string | null;
  usageFile: string | null;
  promptBytes: number;
}

/** The env to pass to yoke so its agent calls follow `script`. */
export interface ScriptEnv extends Record<string, string> {
  FAKE_AGENT_SCRIPT: string;
  FAKE_AGENT_LOG: string;
}

/** `agent cmd …` line running the fake agent with this Node. */
export function fakeAgentCommand(): string {
  const quote = (s: string): string => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replaceAll("'", `'\\''`)}'`);
  return `agent cmd ${quote(process.execPath)} ${quote(fakeAgentPath)}`;
}

/**
 * Write `script` into the workspace's side folder and return the env for yoke.
 * The call log is `<side>/agent-calls.jsonl` whatever the name, so a resumed run with a new script
 * keeps appending to the same log.
 */
export async function writeScript(ws: { side(name: string): string }, script: FakeScript, name = 'script'): Promise<ScriptEnv> {
  const scriptPath = ws.side(`${name}.json`);
  await writeFile(scriptPath, JSON.stringify(script, null, 2));
  return { FAKE_AGENT_SCRIPT: scriptPath, FAKE_AGENT_LOG: ws.side('agent-calls.jsonl') };
}

/** Parse the fake agent's call log; a missing log means no call. */
export async function agentCalls(logPath: string): Promise<AgentCall[]> {
  if (!existsSync(logPath)) return [];
  const text = await readFile(logPath, 'utf8');
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as AgentCall);
}

/** Pids of grandchildren spawned by `spawnGrandchild` (written next to the call log). */
export async function grandchildPids(logPath: string): Promise<number[]> {
  const file = `${logPath}.grandchild`;
  if (!existsSync(file)) return [];
  return (await readFile(file, 'utf8')).split('\n').filter((l) => l.trim() !== '').map(Number);
}
