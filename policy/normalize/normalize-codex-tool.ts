// Codex CLI's tools (0.171) as acts: the model's names (`exec_command` with `cmd`, `apply_patch`
// with freeform patch text) and the names its hooks report (`Bash` with `command`, `apply_patch`
// with `command`).
import type { ToolAct } from '../tool-act.js';
import { parseShellList } from './shell-list.js';
import { patchActs } from './parse-apply-patch.js';
import { inputObject, stringField } from './tool-input.js';

const INTERNAL = ['update_plan', 'request_user_input', 'view_image_tool', 'list_agents', 'wait', 'tool_search'];
const DELEGATE = ['spawn_agent', 'send_input', 'resume_agent', 'close_agent', 'send_message', 'followup_task', 'interrupt_agent'];

/** The text of an `apply_patch` call: freeform input, or `input`/`patch`/`command` of an object. */
function patchText(rawInput: unknown): string | null {
  const field = stringField(inputObject(rawInput), 'input', 'patch', 'command');
  if (field !== null) return field;
  return typeof rawInput === 'string' ? rawInput : null;
}

/**
 * The acts of one Codex tool call.
 * @example normalizeCodexTool('exec_command', '{"cmd":"rm -rf x","workdir":"/p"}') // [{ kind: 'shell', command: 'rm -rf x', cwd: '/p' }]
 */
export function normalizeCodexTool(tool: string, rawInput: unknown): ToolAct[] {
  const input = inputObject(rawInput);
  const workdir = stringField(input, 'workdir', 'cwd');
  const where = workdir === null ? {} : { cwd: workdir };
  switch (tool) {
    case 'exec_command': return [{ kind: 'shell', command: stringField(input, 'cmd', 'command'), ...where }];
    case 'Bash': return [{ kind: 'shell', command: stringField(input, 'command', 'cmd'), ...where }];
    case 'shell': case 'local_shell': case 'container.exec': case 'shell_command': return [{ kind: 'shell', command: parseShellList(input), ...where }];
    case 'write_stdin': return [{ kind: 'shell', command: stringField(input, 'chars') ?? '' }];
    case 'apply_patch': {
      const patch = patchText(rawInput);
      return patch === null ? [{ kind: 'unknown', what: 'an apply_patch call with no patch text' }] : patchActs(patch);
    }
    case 'view_image': return [{ kind: 'read', path: stringField(input, 'path') }];
    case 'web_search': case 'web.run': return [{ kind: 'network', what: 'searches the web' }];
  }
  if (INTERNAL.includes(tool)) return [{ kind: 'internal', what: `${tool} changes only the agent's own session state` }];
  if (DELEGATE.includes(tool)) return [{ kind: 'delegate', what: `${tool} talks to a sub-agent, whose own tool calls are ruled one by one` }];
  return [{ kind: 'unknown', what: `${tool} is not a tool yoke knows` }];
}
