// opencode's built-in tools as acts (bash, edit, write, read, glob, grep, list, webfetch, patch …).
import type { ToolAct } from '../tool-act.js';
import { patchActs } from './parse-apply-patch.js';
import { emptiesFile, inputObject, stringField } from './tool-input.js';

const INTERNAL = ['todowrite', 'todoread', 'skill', 'question', 'invalid', 'lsp'];

/**
 * The acts of one opencode tool call.
 * @example normalizeOpencodeTool('edit', { filePath: '/p/src/a.ts' }) // [{ kind: 'write', path: '/p/src/a.ts' }]
 */
export function normalizeOpencodeTool(tool: string, rawInput: unknown): ToolAct[] {
  const input = inputObject(rawInput);
  switch (tool) {
    case 'bash': {
      const workdir = stringField(input, 'workdir');
      return [{ kind: 'shell', command: stringField(input, 'command'), ...(workdir === null ? {} : { cwd: workdir }) }];
    }
    case 'write': return [{ kind: 'write', path: stringField(input, 'filePath', 'file_path'), ...emptiesFile(input) }];
    case 'edit': case 'multiedit': return [{ kind: 'write', path: stringField(input, 'filePath', 'file_path') }];
    case 'read': return [{ kind: 'read', path: stringField(input, 'filePath', 'file_path') }];
    case 'glob': return [{ kind: 'search', path: stringField(input, 'path'), pattern: stringField(input, 'pattern'), contents: false }];
    case 'grep': return [{ kind: 'search', path: stringField(input, 'path'), pattern: stringField(input, 'include'), contents: true }];
    case 'list': return [{ kind: 'search', path: stringField(input, 'path'), pattern: null, contents: false }];
    case 'webfetch': case 'websearch': case 'codesearch': return [{ kind: 'network', what: `${tool} reaches the network` }];
    case 'patch': case 'apply_patch': {
      const patch = stringField(input, 'patchText', 'patch', 'input');
      return patch === null ? [{ kind: 'unknown', what: `a ${tool} call with no patch text` }] : patchActs(patch);
    }
    case 'task': return [{ kind: 'delegate', what: 'starts a sub-agent, whose own tool calls are ruled one by one' }];
  }
  if (INTERNAL.includes(tool)) return [{ kind: 'internal', what: `${tool} changes only the agent's own session state` }];
  return [{ kind: 'unknown', what: `${tool} is not a tool yoke knows` }];
}
