// The tool-call gate (`yoke gate`, DESIGN §13) as each agent's project hook settings name it, for
// interactive sessions. Formats checked on the installed CLIs (docs/retrofit.md, /work/notes/tool-hooks.md).
import type { JsonPart } from './json-parts.js';
import type { RetrofitAgent } from './retrofit-agents.js';
import type { TomlTable } from './toml-block.js';

/** The hook command: the `yoke` on PATH. */
export function gateCommand(agent: RetrofitAgent): string {
  return `yoke gate --agent ${agent}`;
}

/**
 * How long a CLI waits for the gate before it gives up. Every CLI lets a call run when its hook
 * times out, so this stays above the gate's own deadline (the gate answers first, with a ruling).
 */
export const GATE_TIMEOUT_SECONDS = 30;

/** Gemini identifies project hooks by name: one stable name, so trust survives re-runs. */
export const GEMINI_HOOK_NAME = 'yoke-gate';

/**
 * Claude Code: a `PreToolUse` group for every tool, and `PreSkillShellCommand` for the inline
 * shell commands of skills, which `PreToolUse` does not see (tool-hooks §2.8).
 */
export function claudeGateParts(): JsonPart[] {
  const group = { matcher: '*', hooks: [{ type: 'command', command: gateCommand('claude'), timeout: GATE_TIMEOUT_SECONDS }] };
  return [
    { kind: 'item', at: ['hooks', 'PreToolUse'], key: gateCommand('claude'), item: group },
    { kind: 'item', at: ['hooks', 'PreSkillShellCommand'], key: gateCommand('claude'), item: group },
  ];
}

/** Codex: `[[hooks.PreToolUse]]` in the project's .codex/config.toml (read once the project is trusted). */
export function codexGateTable(): TomlTable {
  return { hooks: { PreToolUse: [{ matcher: '*', hooks: [{ type: 'command', command: gateCommand('codex'), timeout: GATE_TIMEOUT_SECONDS }] }] } };
}

/** Gemini CLI: a named `BeforeTool` hook (its timeout is in milliseconds). */
export function geminiGatePart(): JsonPart {
  const hook = { name: GEMINI_HOOK_NAME, type: 'command', command: gateCommand('gemini'), timeout: GATE_TIMEOUT_SECONDS * 1000 };
  return { kind: 'item', at: ['hooks', 'BeforeTool'], key: gateCommand('gemini'), item: { matcher: '*', hooks: [hook] } };
}
