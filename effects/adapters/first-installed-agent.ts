// Which built-in agent CLI is installed here: the first one on PATH, in yoke's order of preference.
import { BUILT_IN_AGENT_KINDS } from '../../config/types.js';
import { findOnPath } from './agent-availability.js';
import { BUILT_IN_AGENTS, type BuiltInAgentKind } from './built-in-agents.js';

/** A built-in agent CLI found on PATH. */
export interface InstalledAgent {
  kind: BuiltInAgentKind;
  path: string;
}

/**
 * The first of claude, codex, gemini, opencode, qwen whose binary is on `pathVariable`, or null.
 * Looks at PATH only (no `--version`), the way `yoke config check` finds them, so it stays fast.
 */
export function firstInstalledAgent(pathVariable: string): InstalledAgent | null {
  for (const kind of BUILT_IN_AGENT_KINDS) {
    const path = findOnPath(BUILT_IN_AGENTS[kind].binary, pathVariable);
    if (path !== null) return { kind, path };
  }
  return null;
}
