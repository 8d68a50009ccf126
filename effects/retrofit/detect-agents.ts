// What a project already has for each agent: the detect phase of `yoke retrofit`.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { RetrofitAgent } from '../../machines/retrofit/retrofit-agents.js';

/** Paths that show an agent is configured in a project. */
const SIGNS: { readonly [A in RetrofitAgent]: readonly string[] } = {
  claude: ['.claude', 'CLAUDE.md', '.mcp.json'],
  codex: ['.codex', '.agents'],
  gemini: ['.gemini', 'GEMINI.md'],
};

/** Agent files worth naming in the report when present. */
const NOTABLE = ['AGENTS.md', 'CLAUDE.md', 'GEMINI.md', '.claude/settings.json', '.claude/settings.local.json', '.claude/skills', '.mcp.json', '.codex/config.toml', '.codex/hooks.json', '.agents/skills', '.gemini/settings.json', '.gemini/commands'];

/** What detection found. */
export interface DetectedProject {
  /** agents with any sign of configuration */
  agents: RetrofitAgent[];
  /** notable agent files that exist */
  found: string[];
}

/** Look for each agent's files under `root`. */
export function detectAgents(root: string): DetectedProject {
  const agents = (Object.keys(SIGNS) as RetrofitAgent[]).filter((agent) => SIGNS[agent].some((path) => existsSync(join(root, path))));
  return { agents, found: NOTABLE.filter((path) => existsSync(join(root, path))) };
}
