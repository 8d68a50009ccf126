// What a tool call does, whatever the agent calls the tool: the common form the per-agent
// normalizers map each built-in tool's name and input to.

/** One act of a tool call. Paths are as the tool was given them (absolute or relative to the cwd); `empties`: the write leaves the file empty. */
export type ToolAct =
  | { kind: 'shell'; command: string | null; cwd?: string }
  | { kind: 'write'; path: string | null; empties?: true }
  | { kind: 'delete'; path: string | null }
  | { kind: 'read'; path: string | null }
  | { kind: 'search'; path: string | null; pattern: string | null; contents: boolean }
  | { kind: 'network'; what: string }
  | { kind: 'internal'; what: string }
  | { kind: 'delegate'; what: string }
  | { kind: 'unknown'; what: string };

/** The agents whose tools yoke knows by name. */
export const POLICY_AGENTS = ['claude', 'codex', 'gemini', 'qwen', 'opencode'] as const;
export type PolicyAgent = (typeof POLICY_AGENTS)[number];

/** Narrows a name to a policy agent. */
export function isPolicyAgent(name: string): name is PolicyAgent {
  return (POLICY_AGENTS as readonly string[]).includes(name);
}
