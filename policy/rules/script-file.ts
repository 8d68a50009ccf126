// Running a file as a script (`sh clean.sh`, `./clean.sh`, `python x.py`, `source x`): its text
// decides, as for `sh -c`, when yoke can see it: written earlier in the same command, or read by
// the gate when it ruled (journaled in the scope). A file yoke cannot see stays `exec`; one the
// gate has not read yet is asked for (`wants`), and the call is classified again with its text.
import type { Finding } from '../classification.js';
import { displayPath } from '../paths/resolve-path.js';
import type { Arg, CommandContext } from '../shell/command-context.js';

/**
 * The findings of `who` running the script file `arg`: reading it (a secret file is read), `exec`,
 * and what `classify` finds in its text; without the text, `exec` saying so.
 */
export function scriptFileFindings(arg: Arg, ctx: CommandContext, who: string, classify: (text: string) => Finding[]): Finding[] {
  const file = ctx.scriptFile(arg);
  const shown = file.path === null ? arg.text ?? 'a file known only when it runs' : displayPath(file.path, ctx.scope.root);
  const secret = ctx.path('read', arg, `${who} reads`).filter((finding) => finding.class === 'secret');
  if (file.text !== null) return [...secret, { class: 'exec', reason: `${who} runs the script file ${shown}` }, ...classify(file.text)];
  // A secret file is never asked for: its text would be journaled with the scope (the call is refused for reading it anyway).
  const wants = secret.length === 0 && file.unread && file.path !== null ? { wants: file.path } : {};
  return [...secret, { class: 'exec', reason: `${who} runs the script file ${shown}, whose text yoke cannot see`, ...wants }];
}
