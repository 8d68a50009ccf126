// `yoke` itself, called by an agent. The operator's commands are `protected`: `yoke answer` would
// answer the agent's own held calls (a live run takes answers over its socket), `yoke budget` would
// raise its own ceilings, `yoke protect refresh` would bless its changes to the protected files.
// However yoke is started: `yoke`, a path to it, `node …/yoke.js`, `npx yoke`. Every other
// subcommand is a program like any other (`exec`); those that change the workspace are refused by
// the workspace lease while the run holds it.
import type { Finding } from '../classification.js';
import type { Arg, CommandContext, CommandRule } from '../shell/command-context.js';
import { runUnknown } from './unknown-command.js';

/** The operator's subcommand among `args` (any word counts: an option may take a value, and refusing too much is safe), or null. */
export function operatorCommand(args: readonly Arg[]): string | null {
  const words = args.map((arg) => arg.text);
  if (words.includes('answer')) return 'answer';
  if (words.includes('budget')) return 'budget';
  const protect = words.indexOf('protect');
  if (protect >= 0 && words.slice(protect + 1).includes('refresh')) return 'protect refresh';
  return null;
}

const WHY: { readonly [command: string]: string } = {
  answer: "answers yoke's held tool calls",
  budget: "changes the run's budgets",
  'protect refresh': 'takes a new baseline of the protected files',
};

/** `yoke answer|budget|protect refresh …` is protected; a subcommand known only at run time too; any other `yoke …` is exec. */
export const runYoke: CommandRule = (name, args, ctx) => {
  const command = operatorCommand(args);
  if (command !== null) return [{ class: 'protected', reason: `\`${name} ${command}\` ${WHY[command] ?? ''}, which only the operator may do` }];
  const subcommand = args.find((arg) => arg.text === null || !arg.text.startsWith('-'));
  if (subcommand !== undefined && subcommand.text === null) {
    return [{ class: 'protected', reason: `\`${name}\` is given a subcommand known only at run time, which may be one only the operator may run (\`answer\`, \`budget\`, \`protect refresh\`)` }];
  }
  return runUnknown(name, args, ctx);
};

/** Whether a script path is yoke's own entry (`yoke`, `dist/bundle/yoke.js`, `node_modules/.bin/yoke`). */
export function isYokeEntry(path: string | null): boolean {
  return path !== null && /^yoke(\.[cm]?js)?$/.test(path.split('/').at(-1) ?? '');
}

/** yoke started by an interpreter or a package runner: its findings, with `args` the words after the entry. */
export function yokeVia(args: readonly Arg[], ctx: CommandContext): Finding[] {
  return runYoke('yoke', args, ctx);
}
