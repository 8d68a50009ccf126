// Claude Code's built-in tools (names verified in the 2.1.332 binary) as acts.
import type { ToolAct } from '../tool-act.js';
import { emptiesFile, inputObject, stringField } from './tool-input.js';

/** Claude Code tools that only touch the agent's own session state (plans, todos, questions, tasks). */
const INTERNAL = [
  'TodoWrite', 'TaskCreate', 'TaskUpdate', 'TaskList', 'TaskGet', 'TaskStop', 'TaskOutput', 'KillShell', 'BashOutput',
  'ExitPlanMode', 'EnterPlanMode', 'AskUserQuestion', 'ToolSearch', 'Skill', 'Monitor', 'SlashCommand', 'StructuredOutput',
];

/**
 * The acts of one Claude Code tool call (`tool_name`, `tool_input` of a PreToolUse hook).
 * @example normalizeClaudeTool('Write', { file_path: '/p/notes.md', content: 'x' }) // [{ kind: 'write', path: '/p/notes.md' }]
 */
export function normalizeClaudeTool(tool: string, rawInput: unknown): ToolAct[] {
  const input = inputObject(rawInput);
  switch (tool) {
    case 'Bash': return [{ kind: 'shell', command: stringField(input, 'command') }];
    case 'Write': return [{ kind: 'write', path: stringField(input, 'file_path'), ...emptiesFile(input) }];
    case 'Edit': case 'MultiEdit': return [{ kind: 'write', path: stringField(input, 'file_path') }];
    case 'NotebookEdit': return [{ kind: 'write', path: stringField(input, 'notebook_path', 'file_path') }];
    case 'Read': case 'NotebookRead': return [{ kind: 'read', path: stringField(input, 'file_path', 'notebook_path') }];
    case 'Glob': return [{ kind: 'search', path: stringField(input, 'path'), pattern: stringField(input, 'pattern'), contents: false }];
    case 'Grep': return [{ kind: 'search', path: stringField(input, 'path'), pattern: stringField(input, 'glob'), contents: true }];
    case 'LS': return [{ kind: 'search', path: stringField(input, 'path'), pattern: null, contents: false }];
    case 'WebFetch': return [{ kind: 'network', what: `fetches ${stringField(input, 'url') ?? 'a URL'}` }];
    case 'WebSearch': return [{ kind: 'network', what: 'searches the web' }];
    case 'Agent': case 'Task': return [{ kind: 'delegate', what: 'starts a sub-agent, whose own tool calls are ruled one by one' }];
  }
  if (INTERNAL.includes(tool)) return [{ kind: 'internal', what: `${tool} changes only the agent's own session state` }];
  return [{ kind: 'unknown', what: tool.startsWith('mcp__') ? `${tool} is an MCP server's tool` : `${tool} is not a tool yoke knows` }];
}
