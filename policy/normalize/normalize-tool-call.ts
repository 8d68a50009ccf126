// The acts of a tool call of any known agent, through that agent's normalizer (compiler-checked complete).
import type { PolicyAgent, ToolAct } from '../tool-act.js';
import { normalizeClaudeTool } from './normalize-claude-tool.js';
import { normalizeCodexTool } from './normalize-codex-tool.js';
import { normalizeGeminiTool } from './normalize-gemini-tool.js';
import { normalizeOpencodeTool } from './normalize-opencode-tool.js';
import { normalizeQwenTool } from './normalize-qwen-tool.js';

const NORMALIZERS: { readonly [A in PolicyAgent]: (tool: string, input: unknown) => ToolAct[] } = {
  claude: normalizeClaudeTool,
  codex: normalizeCodexTool,
  gemini: (tool, input) => normalizeGeminiTool(tool, input, '~/.gemini/GEMINI.md'),
  qwen: normalizeQwenTool,
  opencode: normalizeOpencodeTool,
};

/** What `agent`'s tool `tool` does with `input`. */
export function normalizeToolCall(agent: PolicyAgent, tool: string, input: unknown): ToolAct[] {
  return NORMALIZERS[agent](tool, input);
}
