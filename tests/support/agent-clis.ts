// The pinned real agent CLIs (installed by scripts/install-agent-clis.sh, outside node_modules) and
// an isolated offline environment to run one of them against the mock model server
// (tests/support/mock-model-server/): fresh HOME and TMPDIR, the settings files each CLI needs, and
// only the variables that point it at the mock. Findings behind each setting: that folder's README.md.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';

/** The real agent CLIs yoke drives. */
export type AgentCliName = 'claude' | 'codex' | 'gemini' | 'opencode' | 'qwen';

/** One pinned CLI: npm package, version, binary name. */
export interface AgentCliPin {
  npmPackage: string;
  version: string;
  bin: string;
}

/** The pins; keep in sync with scripts/install-agent-clis.sh. */
export const agentCliPins: Record<AgentCliName, AgentCliPin> = {
  claude: { npmPackage: '@anthropic-ai/claude-code', version: '2.1.332', bin: 'claude' },
  codex: { npmPackage: '@openai/codex', version: '0.171.0', bin: 'codex' },
  gemini: { npmPackage: '@google/gemini-cli', version: '0.61.0', bin: 'gemini' },
  opencode: { npmPackage: 'opencode-ai', version: '1.18.33', bin: 'opencode' },
  qwen: { npmPackage: '@qwen-code/qwen-code', version: '0.24.4', bin: 'qwen' },
};

/** The install root: `$YOKE_AGENT_CLIS`, else `$HOME/.cache/yoke/agent-clis` (as the install script). */
export function agentClisRoot(env: NodeJS.ProcessEnv = process.env): string {
  return env.YOKE_AGENT_CLIS || join(env.HOME || homedir(), '.cache', 'yoke', 'agent-clis');
}

/** Where the install script puts a CLI's binary (it may not be there). */
export function agentCliBinary(name: AgentCliName, env: NodeJS.ProcessEnv = process.env): string {
  const pin = agentCliPins[name];
  return join(agentClisRoot(env), `${name}-${pin.version}`, 'node_modules', '.bin', pin.bin);
}

/** The binary's path when it is installed, else undefined. */
export function installedAgentCli(name: AgentCliName, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const path = agentCliBinary(name, env);
  return existsSync(path) ? path : undefined;
}

/** An isolated environment for one CLI call. */
export interface OfflineAgentEnv {
  /** the complete environment to spawn the CLI with (nothing else is inherited but PATH and LANG) */
  env: Record<string, string>;
  /** the fresh HOME (settings files live under it) */
  home: string;
  /** the fresh TMPDIR */
  tmp: string;
  /** remove HOME and TMPDIR */
  cleanup: () => Promise<void>;
}

/** The fake API key every CLI sends to the mock. */
export const mockApiKey = 'mock-api-key';

async function writeCodexConfig(codexHome: string, baseUrl: string): Promise<void> {
  // Everything codex needs is here, so the production command line needs no `-c` flags.
  await mkdir(codexHome, { recursive: true });
  await writeFile(join(codexHome, 'config.toml'), [
    'model_provider = "mock"',
    'check_for_update_on_startup = false',
    '',
    '[analytics]',
    'enabled = false',
    '',
    '[model_providers.mock]',
    'name = "Mock"',
    `base_url = "${baseUrl}/v1"`,
    'env_key = "MOCK_API_KEY"',
    'wire_api = "responses"',
    'request_max_retries = 0',
    'stream_max_retries = 0',
    '',
  ].join('\n'));
}

async function writeGeminiSettings(geminiDir: string): Promise<void> {
  await mkdir(geminiDir, { recursive: true });
  await writeFile(join(geminiDir, 'settings.json'), `${JSON.stringify({
    security: { auth: { selectedType: 'gemini-api-key' } },
    general: { maxAttempts: 1 },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
  }, null, 2)}\n`);
}

/** The model the OpenCode and Qwen Code configs below declare (OpenCode names it `mock/mock-model`). */
export const mockChatModel = 'mock-model';

async function writeOpencodeConfig(configDir: string, baseUrl: string): Promise<void> {
  // An OpenAI-compatible provider (bundled in the binary: nothing is installed), its key read
  // from the environment the way codex's env_key is; no update checks, no sharing.
  await mkdir(configDir, { recursive: true });
  await writeFile(join(configDir, 'opencode.json'), `${JSON.stringify({
    $schema: 'https://opencode.ai/config.json',
    autoupdate: false,
    share: 'disabled',
    model: `mock/${mockChatModel}`,
    provider: {
      mock: {
        npm: '@ai-sdk/openai-compatible',
        name: 'Mock',
        options: { baseURL: `${baseUrl}/v1`, apiKey: '{env:MOCK_API_KEY}' },
        models: { [mockChatModel]: { name: 'Mock model' } },
      },
    },
  }, null, 2)}\n`);
  // What OpenCode leaves in its config dir after one start with network: it installs
  // @opencode-ai/plugin there at every start and skips that once package.json, package-lock.json and
  // node_modules/ agree. Offline, a missing install is retried before any call that loads a plugin
  // (yoke's gate does) for ~70 s; a user who ever ran OpenCode online has these files.
  const plugin = '@opencode-ai/plugin';
  const version = agentCliPins.opencode.version;
  await mkdir(join(configDir, 'node_modules', '@opencode-ai', 'plugin'), { recursive: true });
  await writeFile(join(configDir, 'node_modules', '@opencode-ai', 'plugin', 'package.json'), `${JSON.stringify({ name: plugin, version })}\n`);
  await writeFile(join(configDir, 'package.json'), `${JSON.stringify({ dependencies: { [plugin]: version } })}\n`);
  await writeFile(join(configDir, 'package-lock.json'), `${JSON.stringify({ name: 'opencode', lockfileVersion: 3, requires: true, packages: { '': { dependencies: { [plugin]: version } }, [`node_modules/${plugin}`]: { version } } })}\n`);
}

async function writeQwenSettings(qwenDir: string): Promise<void> {
  // maxRetries 0: no rate-limit retry loop (default 10 retries from 60 s); the managed auto-memory
  // and auto-dream agents would otherwise make extra model requests after every call.
  await mkdir(qwenDir, { recursive: true });
  await writeFile(join(qwenDir, 'settings.json'), `${JSON.stringify({
    security: { auth: { selectedType: 'openai' } },
    model: { name: mockChatModel, generationConfig: { maxRetries: 0 } },
    memory: { enableManagedAutoMemory: false, enableManagedAutoDream: false },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
  }, null, 2)}\n`);
}

/** Per CLI: write its settings under `home` and return the variables that point it at `baseUrl`. */
async function cliEnv(name: AgentCliName, home: string, baseUrl: string): Promise<Record<string, string>> {
  switch (name) {
    case 'claude':
      return {
        ANTHROPIC_BASE_URL: baseUrl,
        ANTHROPIC_API_KEY: mockApiKey,
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        CLAUDE_CODE_MAX_RETRIES: '0',
      };
    case 'codex': {
      const codexHome = join(home, '.codex');
      await writeCodexConfig(codexHome, baseUrl);
      return { CODEX_HOME: codexHome, MOCK_API_KEY: mockApiKey };
    }
    case 'gemini':
      await writeGeminiSettings(join(home, '.gemini'));
      return {
        GEMINI_API_KEY: mockApiKey,
        GOOGLE_GEMINI_BASE_URL: baseUrl,
        GEMINI_CLI_TRUST_WORKSPACE: 'true',
        GEMINI_CLI_NO_RELAUNCH: 'true',
      };
    case 'opencode':
      await writeOpencodeConfig(join(home, '.config', 'opencode'), baseUrl);
      return { MOCK_API_KEY: mockApiKey, OPENCODE_DISABLE_MODELS_FETCH: '1' };
    case 'qwen':
      await writeQwenSettings(join(home, '.qwen'));
      return { OPENAI_API_KEY: mockApiKey, OPENAI_BASE_URL: `${baseUrl}/v1`, QWEN_CODE_NO_RELAUNCH: 'true' };
  }
}

/**
 * A fresh HOME and TMPDIR (under `parent`, default the OS temp dir) with `name`'s settings, and an
 * environment that sends every model request to the mock at `baseUrl` (`http://127.0.0.1:<port>`).
 */
export async function offlineAgentEnv(name: AgentCliName, baseUrl: string, parent = tmpdir()): Promise<OfflineAgentEnv> {
  const root = await mkdtemp(join(parent, `yoke-${name}-env-`));
  const home = join(root, 'home');
  const tmp = join(root, 'tmp');
  await mkdir(home, { recursive: true });
  await mkdir(tmp, { recursive: true });
  const base: Record<string, string> = { PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin', HOME: home, TMPDIR: tmp };
  if (process.env.LANG !== undefined) base.LANG = process.env.LANG;
  return {
    env: { ...base, ...(await cliEnv(name, home, baseUrl)) },
    home,
    tmp,
    cleanup: () => rm(root, { recursive: true, force: true }),
  };
}
