// Naming the tool calls a CLI refused, for the detail line of a `permission-denied` call.
import { isRecord } from './json-line-splitter.js';
import { objectField, stringField } from './json-value.js';
import { oneLine } from './text-tail.js';

/**
 * `2 tool calls were denied: Write notes.md, Bash npm test` from claude-style `permission_denials`
 * entries (`{tool_name, tool_input}`); at most three are named.
 */
export function describeDenials(denials: unknown[]): string {
  const records = denials.filter(isRecord);
  const calls = records.slice(0, 3).map((denial) => {
    const input = objectField(denial, 'tool_input');
    const target = stringField(input, 'file_path') ?? stringField(input, 'command') ?? stringField(input, 'path');
    return [stringField(denial, 'tool_name') ?? 'a tool', target].filter((part) => part !== null).join(' ');
  });
  const more = records.length > 3 ? `, and ${records.length - 3} more` : '';
  const count = records.length === 1 ? '1 tool call was' : `${records.length} tool calls were`;
  return oneLine(`${count} denied: ${calls.join(', ')}${more}`);
}
