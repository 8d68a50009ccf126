// One line naming a tool call for people: the tool and what it acts on (the command, the path).
import { isRecord } from './json-line-splitter.js';
import { oneLine } from './text-tail.js';

/**
 * `Bash rm -r keep`, `Write /p/notes.md`, or the tool alone.
 * @example toolCallSummary('Bash', { command: 'rm -r keep' }) // 'Bash rm -r keep'
 */
export function toolCallSummary(tool: string, input: unknown): string {
  const fields = isRecord(input) ? input : {};
  const target = ['command', 'cmd', 'file_path', 'filePath', 'absolute_path', 'path', 'url', 'pattern'].map((key) => fields[key]).find((value): value is string => typeof value === 'string' && value !== '');
  return oneLine(target === undefined ? tool : `${tool} ${target}`, 160);
}
