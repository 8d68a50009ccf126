// Runs the built yoke CLI (dist/bundle/yoke.js) driving one real agent CLI against the scripted mock
// model server: yoke and the CLI it spawns share the loopback-only network namespace (as root), the
// CLI's isolated offline environment (tests/support/agent-clis.ts), and its bin dir first on PATH.
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { installedAgentCli, agentCliBinary, offlineAgentEnv, type AgentCliName } from '../../support/agent-clis.js';
import type { MockScript } from '../../support/mock-model-server/mock-script.js';
import { runOffline, type OfflineRunResult } from '../../support/mock-model-server/run-offline.js';
import { yokeBin } from '../../support/yoke-process.js';

/** What a test may change about the CLI's environment. */
export interface OfflineOptions {
  /** a folder put ahead of the CLI's own on PATH (a wrapper of the CLI) */
  pathFirst?: string;
  /** called with the CLI's isolated environment before yoke starts (to write the user's settings) */
  prepare?: (env: Record<string, string>, home: string) => Promise<void> | void;
}

/** `yoke <args>` run offline in `projectRoot` with `cli` on PATH, against `script`. */
export async function runYokeOffline(cli: AgentCliName, projectRoot: string, args: string[], script: MockScript, timeoutMs = 150_000, options: OfflineOptions = {}): Promise<OfflineRunResult> {
  const bin = installedAgentCli(cli);
  if (bin === undefined) throw new Error(`${cli} is not installed at ${agentCliBinary(cli)}; run bash scripts/install-agent-clis.sh.`);
  if (!existsSync(yokeBin)) throw new Error(`the built yoke CLI is missing at ${yokeBin}; run npm run build first.`);
  let cleanup: (() => Promise<void>) | undefined;
  try {
    return await runOffline({
      script,
      timeoutMs,
      command: async (baseUrl) => {
        const isolated = await offlineAgentEnv(cli, baseUrl);
        cleanup = isolated.cleanup;
        await options.prepare?.(isolated.env, isolated.home);
        const path = [options.pathFirst, dirname(bin), isolated.env.PATH ?? ''].filter((part) => part !== undefined).join(':');
        const env = { ...isolated.env, PATH: path, NO_COLOR: '1', FORCE_COLOR: '0' };
        return { file: process.execPath, args: [yokeBin, ...args], env, cwd: projectRoot };
      },
    });
  } finally {
    await cleanup?.();
  }
}
