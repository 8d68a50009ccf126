// The CLIs behind the built-in adapters: the binary yoke runs and where users get it.
import type { AgentSpec } from '../../config/types.js';

/** A built-in agent kind. */
export type BuiltInAgentKind = Exclude<AgentSpec['kind'], 'cmd'>;

/** What yoke needs to know to find, name and install one CLI. */
export interface BuiltInAgent {
  /** looked up on PATH */
  binary: string;
  /** the npm package that installs it */
  npmPackage: string;
  /** the version yoke's adapter was checked against */
  testedVersion: string;
}

/** The built-in CLIs. */
export const BUILT_IN_AGENTS: { readonly [K in BuiltInAgentKind]: BuiltInAgent } = {
  claude: { binary: 'claude', npmPackage: '@anthropic-ai/claude-code', testedVersion: '2.1.332' },
  codex: { binary: 'codex', npmPackage: '@openai/codex', testedVersion: '0.171.0' },
  gemini: { binary: 'gemini', npmPackage: '@google/gemini-cli', testedVersion: '0.61.0' },
  opencode: { binary: 'opencode', npmPackage: 'opencode-ai', testedVersion: '1.18.33' },
  qwen: { binary: 'qwen', npmPackage: '@qwen-code/qwen-code', testedVersion: '0.24.4' },
};
