// What a command rule sees: the command's arguments as far as they are known, and the means to
// judge the paths it names and the commands and scripts it runs in turn.
import type { Finding } from '../classification.js';
import type { PathAct } from '../paths/path-findings.js';
import type { ToolScope } from '../tool-scope.js';

/** One argument after expansion: its text (null when known only at run time) and whether it is a glob. */
export interface Arg {
  text: string | null;
  glob: boolean;
}

/** The context of one command. */
export interface CommandContext {
  scope: ToolScope;
  /** The directory it runs in (absolute), or null when known only at run time. */
  cwd: string | null;
  /** Its standard input when the script spells it out (a here-document, `<<<`, `echo … |`); else undefined. */
  stdin: string | undefined;
  /** The findings of doing `act` to the path `arg`; `doing` says who does it: "rm -rf deletes". */
  path(act: PathAct, arg: Arg, doing: string): Finding[];
  /** The findings of a command given as words (what `sudo`, `xargs` or `find -exec` run), in `cwd` when it moves. */
  run(words: Arg[], cwd?: string | null): Finding[];
  /** The same context in another directory (`git -C dir`). */
  moveTo(cwd: string | null): CommandContext;
  /** The findings of shell script text (what `sh -c` or `eval` run), with `origin` naming who runs it. */
  script(text: string, origin: string): Finding[];
  /**
   * The file `arg` names, for running it as a script: its absolute path (null: known only at run
   * time) and its text: written earlier in this command, else as the gate read it (`scope.scripts`);
   * null when it cannot be seen. `unread`: the gate has not read it yet (ask for it with `wants`).
   */
  scriptFile(arg: Arg): { path: string | null; text: string | null; unread: boolean };
}

/** Judges one command: `name` is the command's base name, `args` the words after it. */
export type CommandRule = (name: string, args: readonly Arg[], ctx: CommandContext) => Finding[];

/** A known argument. */
export function literal(text: string): Arg {
  return { text, glob: false };
}

/** An argument known only at run time (what `xargs` appends, `{}` in `find -exec`). */
export const UNKNOWN_ARG: Arg = { text: null, glob: false };

/** The words as the command line shows them, unknown ones as `…`. */
export function spell(name: string, args: readonly Arg[]): string {
  return [name, ...args.map((arg) => arg.text ?? '…')].join(' ');
}
