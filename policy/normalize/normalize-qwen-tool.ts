// Qwen Code's tools as acts (names and inputs checked in the 0.24.4 bundle): its own tools first,
// then the ones it shares with Gemini CLI, the CLI it descends from.
import type { ToolAct } from '../tool-act.js';
import { normalizeGeminiTool } from './normalize-gemini-tool.js';
import { inputObject, stringField } from './tool-input.js';

/** qwen's tools that change only its own session state (goals, tasks, schedules of its own prompts, tool lookup). */
const INTERNAL = [
  'ask_user_question', 'get_goal', 'update_goal', 'propose_goal', 'list_agents', 'tool_search', 'task_stop', 'task_create',
  'task_update', 'task_list', 'send_message', 'report_findings', 'structured_output', 'cron_create', 'cron_list', 'cron_delete',
  'loop_wakeup', 'team_delete', 'team_plan_approval', 'request_shutdown', 'lsp',
];

/**
 * The acts of one qwen tool call. `tool_call` (the bridge to a deferred tool) is ruled as the tool it
 * calls; qwen itself hands the hook the resolved tool, so this is a second line only.
 * @example normalizeQwenTool('notebook_edit', { notebook_path: '/p/a.ipynb' }) // [{ kind: 'write', path: '/p/a.ipynb' }]
 */
export function normalizeQwenTool(tool: string, rawInput: unknown): ToolAct[] {
  const input = inputObject(rawInput);
  switch (tool) {
    case 'notebook_edit': return [{ kind: 'write', path: stringField(input, 'notebook_path') }];
    case 'zoom_image': return [{ kind: 'read', path: stringField(input, 'file_path') }];
    case 'monitor': {
      const where = stringField(input, 'directory');
      return [{ kind: 'shell', command: stringField(input, 'command'), ...(where === null ? {} : { cwd: where }) }];
    }
    // a git worktree under the project's .qwen/worktrees/, entered or removed
    case 'enter_worktree': case 'exit_worktree': return [{ kind: 'write', path: '.qwen/worktrees/' }];
    case 'team_create': case 'create_sub_session': return [{ kind: 'delegate', what: 'starts other agents, whose own tool calls are ruled one by one' }];
    case 'image_gen': return [{ kind: 'network', what: 'generates an image through a model API' }];
    case 'tool_call': {
      const target = stringField(input, 'name');
      if (target === null || target === 'tool_call') return [{ kind: 'unknown', what: 'a tool_call with no tool to call' }];
      return normalizeQwenTool(target, input.arguments);
    }
  }
  if (INTERNAL.includes(tool)) return [{ kind: 'internal', what: `${tool} changes only the agent's own session state` }];
  return normalizeGeminiTool(tool, rawInput, '~/.qwen/QWEN.md');
}
