// The words of a command line that is one plain call of literal words (quotes undone), as a CLI
// reports a command it wrapped: Codex's `/bin/bash -lc '<command>'`.
import { parseShell } from './parse-shell.js';
import type { ShellWord } from './shell-tree.js';

/**
 * The argv of `source` when it is a single call with no assignments, redirections or expansions;
 * null otherwise.
 * @example literalWords(`/bin/bash -lc 'rm -r keep'`) // ['/bin/bash', '-lc', 'rm -r keep']
 */
export function literalWords(source: string): string[] | null {
  const parsed = parseShell(source);
  if (!parsed.ok || parsed.stmts.length !== 1) return null;
  const [stmt] = parsed.stmts;
  const command = stmt?.command;
  if (stmt === undefined || stmt.redirects.length > 0 || command?.kind !== 'call' || command.assigns.length > 0) return null;
  const words = command.args.map(literalText);
  return words.every((word): word is string => word !== null) ? words : null;
}

function literalText(word: ShellWord): string | null {
  let text = '';
  for (const part of word.parts) {
    if (part.kind !== 'text') return null;
    text += part.text;
  }
  return text;
}
