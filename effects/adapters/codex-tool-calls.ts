// The tool calls Codex ran in one `codex exec --json` call (DESIGN §13): its `command_execution`
// and `file_change` items, unless declined. A call its PreToolUse hook denied never becomes an
// item. Checked on Codex 0.171 (docs/tool-control.md). The hook is told the model's command
// (`Bash`, `{command}`) while the item shows it wrapped (`/bin/bash -lc '<command>'`), and a patch
// item names only the files it changed: so a command is matched to the gate's ruling by its text,
// a patch by its files.
import type { ExecutedToolCall } from '../../machines/effects.js';
import { literalWords } from '../../policy/shell/literal-words.js';
import { isRecord } from './json-line-splitter.js';
import { objectField, stringField } from './json-value.js';
import { oneLine } from './text-tail.js';

const SHELLS = ['bash', 'sh', 'zsh', 'dash'];

/** The model's command inside codex's `<shell> -lc '<command>'` wrapper (the text itself when it is not wrapped). */
export function unwrapCodexCommand(command: string): string {
  const words = literalWords(command);
  if (words?.length !== 3) return command;
  const [shell, flag, inner] = words as [string, string, string];
  return SHELLS.includes(shell.split('/').at(-1) ?? '') && ['-c', '-lc'].includes(flag) ? inner : command;
}

/** Collects from codex's JSON Lines as they come; `calls()` gives the executed ones in order. */
export class CodexToolCalls {
  private readonly items = new Map<string, Record<string, unknown>>();

  /** Fold one event: an item's start or completion (the later report wins: a declined item did not run). */
  take(event: Record<string, unknown>): void {
    if (event.type !== 'item.started' && event.type !== 'item.completed') return;
    const item = objectField(event, 'item');
    const id = stringField(item, 'id');
    if (item === null || id === null || (item.type !== 'command_execution' && item.type !== 'file_change')) return;
    this.items.set(id, item);
  }

  /** The calls that ran. */
  calls(): ExecutedToolCall[] {
    return [...this.items.values()].filter((item) => item.status !== 'declined').map((item): ExecutedToolCall => {
      if (item.type === 'command_execution') {
        const command = unwrapCodexCommand(stringField(item, 'command') ?? '');
        return { tool: 'Bash', match: { by: 'command', command }, summary: oneLine(`Bash ${command}`, 160) };
      }
      const paths = (Array.isArray(item.changes) ? item.changes.filter(isRecord) : []).map((change) => stringField(change, 'path')).filter((path): path is string => path !== null);
      return { tool: 'apply_patch', match: { by: 'paths', paths }, summary: oneLine(`apply_patch ${paths.join(', ')}`, 160) };
    });
  }
}
