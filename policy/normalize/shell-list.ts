// The command of Codex's older `shell` tools: an argv list (`["bash", "-lc", "…"]`) or a string.
import { argvCommand, stringField, stringList } from './tool-input.js';

/** The command line an argv-style `command` field stands for, or null when there is none. */
export function parseShellList(input: Record<string, unknown>): string | null {
  const argv = stringList(input, 'command');
  if (argv.length === 0) return stringField(input, 'cmd');
  if (typeof input.command === 'string') return input.command;
  return argvCommand(argv);
}
