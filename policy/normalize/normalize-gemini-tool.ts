// Gemini CLI's built-in tools (names verified in the 0.61 bundle) as acts; qwen-code, a Gemini CLI
// fork, shares them and adds a few of its own.
import type { ToolAct } from '../tool-act.js';
import { emptiesFile, inputObject, stringField, stringList } from './tool-input.js';

const INTERNAL = [
  'write_todos', 'todo_write', 'ask_user', 'enter_plan_mode', 'exit_plan_mode', 'activate_skill', 'update_topic', 'complete_task',
  'get_internal_docs', 'list_background_processes', 'read_background_output', 'tracker_create_task', 'tracker_update_task',
  'tracker_get_task', 'tracker_list_tasks', 'tracker_add_dependency', 'tracker_visualize', 'skill',
];

/**
 * The acts of one Gemini CLI (or qwen-code) tool call; `memoryFile` is where `save_memory` writes.
 * @example normalizeGeminiTool('run_shell_command', { command: 'ls', dir_path: 'src' }, '~/.gemini/GEMINI.md') // [{ kind: 'shell', command: 'ls', cwd: 'src' }]
 */
export function normalizeGeminiTool(tool: string, rawInput: unknown, memoryFile: string): ToolAct[] {
  const input = inputObject(rawInput);
  const dir = stringField(input, 'dir_path', 'directory', 'path');
  switch (tool) {
    case 'run_shell_command': {
      const where = stringField(input, 'dir_path', 'directory');
      return [{ kind: 'shell', command: stringField(input, 'command'), ...(where === null ? {} : { cwd: where }) }];
    }
    case 'write_file': return [{ kind: 'write', path: stringField(input, 'file_path', 'absolute_path', 'path'), ...emptiesFile(input) }];
    case 'replace': case 'edit': return [{ kind: 'write', path: stringField(input, 'file_path', 'absolute_path', 'path') }];
    case 'read_file': return [{ kind: 'read', path: stringField(input, 'file_path', 'absolute_path', 'path') }];
    case 'read_many_files': {
      const patterns = [...stringList(input, 'include'), ...stringList(input, 'paths')];
      return patterns.length === 0 ? [{ kind: 'read', path: null }] : patterns.map((pattern) => ({ kind: 'search', path: null, pattern, contents: true }));
    }
    case 'list_directory': return [{ kind: 'search', path: dir, pattern: null, contents: false }];
    case 'glob': return [{ kind: 'search', path: dir, pattern: stringField(input, 'pattern'), contents: false }];
    case 'grep_search': case 'search_file_content': case 'grep':
      return [{ kind: 'search', path: dir, pattern: stringField(input, 'include_pattern', 'include', 'glob'), contents: true }];
    case 'web_fetch': return [{ kind: 'network', what: 'fetches the URLs in its prompt' }];
    case 'google_web_search': case 'web_search': return [{ kind: 'network', what: 'searches the web' }];
    case 'save_memory': return [{ kind: 'write', path: memoryFile }];
    case 'invoke_agent': case 'task': case 'agent': return [{ kind: 'delegate', what: 'starts a sub-agent, whose own tool calls are ruled one by one' }];
  }
  if (INTERNAL.includes(tool) || tool.startsWith('tracker_')) return [{ kind: 'internal', what: `${tool} changes only the agent's own session state` }];
  return [{ kind: 'unknown', what: `${tool} is not a tool yoke knows` }];
}
