// What a CLI's pre-tool hook says about one tool call, read from its stdin JSON (DESIGN §13). The
// fields were checked on the installed CLIs: Claude Code 2.1.332 `PreToolUse` and Codex 0.171
// `PreToolUse` send `tool_name`, `tool_input`, `tool_use_id`, `cwd`; Gemini CLI 0.61 `BeforeTool`
// sends `tool_name`, `tool_input`, `cwd`; Qwen Code 0.24.4 `PreToolUse` sends `tool_name`,
// `tool_input`, `cwd` and a `tool_use_id` it makes up per attempt (docs/tool-control.md).

/** One readable hook request. */
export interface HookRequest {
  tool: string;
  input: unknown;
  /** the CLI's id for the call, when it gives one */
  toolUseId: string | null;
  /** the directory the CLI says the call runs in, when it says */
  cwd: string | null;
}

/** A hook request, or why it could not be read (the gate then refuses the call: fail closed). */
export type ReadHookRequest = { ok: true; request: HookRequest } | { ok: false; problem: string };

/**
 * Reads the hook's stdin text. Anything but a JSON object with a non-empty `tool_name` is
 * unreadable: the gate cannot rule on a call it cannot see.
 * @example readHookRequest('{"tool_name":"Bash","tool_input":{"command":"ls"}}').ok // true
 */
export function readHookRequest(text: string): ReadHookRequest {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, problem: `the hook's stdin is not JSON (${error instanceof Error ? error.message : String(error)})` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, problem: 'the hook\'s stdin is not a JSON object' };
  const fields = value as Record<string, unknown>;
  const tool = fields.tool_name;
  if (typeof tool !== 'string' || tool === '') return { ok: false, problem: 'the hook\'s JSON has no tool_name' };
  const id = fields.tool_use_id ?? fields.call_id;
  return {
    ok: true,
    request: {
      tool,
      input: fields.tool_input ?? null,
      toolUseId: typeof id === 'string' && id !== '' ? id : null,
      cwd: typeof fields.cwd === 'string' && fields.cwd !== '' ? fields.cwd : null,
    },
  };
}
