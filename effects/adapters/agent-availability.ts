// Is each built-in CLI the config uses installed? Found on PATH, and what `--version` says.
import { execFile } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { childEnvironment } from '../process/child-environment.js';
import { agentForRole } from '../../config/agent-for-role.js';
import type { AgentRole } from '../../config/lifecycle-catalog.js';
import type { Config } from '../../config/types.js';
import { BUILT_IN_AGENTS, type BuiltInAgentKind } from './built-in-agents.js';
import { oneLine } from './text-tail.js';

/** How long `<cli> --version` may take (gemini starts slowly: 2–4 s idle, 9 s+ on a loaded machine). */
const VERSION_TIMEOUT_MS = 10_000;

/** One built-in CLI the config needs, and whether it is there. */
export type AgentAvailability =
  | { kind: BuiltInAgentKind; roles: string[]; found: true; path: string; version: string | null; message: string }
  | { kind: BuiltInAgentKind; roles: string[]; found: false; message: string };

/** The built-in agent kinds that play `roles` (those the config's lifecycle calls), with the roles each plays. */
export function usedBuiltInAgents(config: Config, roles: readonly AgentRole[]): Map<BuiltInAgentKind, string[]> {
  const used = new Map<BuiltInAgentKind, string[]>();
  for (const role of roles) {
    const agent = agentForRole(config, role);
    if (agent.kind === 'cmd') continue;
    used.set(agent.kind, [...(used.get(agent.kind) ?? []), role]);
  }
  return used;
}

/**
 * For every distinct built-in agent that plays one of `roles` (the roles the config's lifecycle
 * calls): its binary on `PATH` (from `env`) and, unless `withVersion` is false, its `--version`. A
 * missing binary comes with the npm command that installs the tested version.
 */
export async function checkAgentAvailability(config: Config, roles: readonly AgentRole[], env: NodeJS.ProcessEnv = process.env, withVersion = true): Promise<AgentAvailability[]> {
  const checks = [...usedBuiltInAgents(config, roles)].map(async ([kind, roles]): Promise<AgentAvailability> => {
    const cli = BUILT_IN_AGENTS[kind];
    const path = findOnPath(cli.binary, env.PATH ?? '');
    const install = `npm install -g ${cli.npmPackage}@${cli.testedVersion}`;
    if (path === null) {
      return { kind, roles, found: false, message: `the ${kind} CLI (\`${cli.binary}\`, used as ${roles.join(' and ')}) is not on PATH; install it with \`${install}\` or change the agent in yoke.conf` };
    }
    if (!withVersion) return { kind, roles, found: true, path, version: null, message: `${kind}: ${path}` };
    const version = await readVersion(path, env);
    const tested = version !== null && version.includes(cli.testedVersion) ? '' : ` (yoke was tested with ${cli.testedVersion})`;
    const message = version === null
      ? `${kind}: ${path} did not answer \`--version\` within ${VERSION_TIMEOUT_MS / 1000}s; it may not work (reinstall with \`${install}\`)`
      : `${kind}: ${path}, ${version}${tested}`;
    return { kind, roles, found: true, path, version, message };
  });
  return Promise.all(checks);
}

/** The first executable file named `binary` in the `PATH` directories, or null. */
export function findOnPath(binary: string, pathVariable: string): string | null {
  for (const dir of pathVariable.split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, binary);
    try {
      if (!statSync(candidate).isFile()) continue;
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here, or not executable: keep looking
    }
  }
  return null;
}

function readVersion(path: string, env: NodeJS.ProcessEnv): Promise<string | null> {
  return new Promise((resolve) => {
    // GEMINI_CLI_NO_RELAUNCH: gemini otherwise restarts itself in a child node first (about 1.7× slower here).
    execFile(path, ['--version'], { env: { ...childEnvironment(env), GEMINI_CLI_NO_RELAUNCH: 'true' }, timeout: VERSION_TIMEOUT_MS, killSignal: 'SIGKILL', maxBuffer: 64 * 1024 }, (error, stdout) => {
      const line = stdout.split('\n').map((text) => text.trim()).find((text) => text !== '');
      resolve(error !== null || line === undefined ? null : oneLine(line, 100));
    });
  });
}
