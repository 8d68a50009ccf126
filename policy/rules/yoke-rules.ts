// `yoke` itself, called by an agent: `yoke answer` would answer the agent's own held calls (a live
// run takes answers over its socket), so it is `protected`, like a write to yoke's journal. Every
// other subcommand is a program like any other (`exec`); those that change the workspace are
// refused by the workspace lease while the run holds it.
import type { CommandRule } from '../shell/command-context.js';
import { runUnknown } from './unknown-command.js';

/** `yoke answer …` is protected; any other `yoke …` is exec. */
export const runYoke: CommandRule = (name, args, ctx) => {
  // any word `answer` counts (an option before the subcommand may take a value): refusing too much is safe
  if (args.some((arg) => arg.text === 'answer')) {
    return [{ class: 'protected', reason: `\`${name} answer\` answers yoke's held tool calls, which only the operator may do` }];
  }
  const subcommand = args.find((arg) => arg.text === null || !arg.text.startsWith('-'));
  if (subcommand !== undefined && subcommand.text === null) {
    return [{ class: 'protected', reason: `\`${name}\` is given a subcommand known only at run time, which may be \`answer\` (answering yoke's held tool calls is the operator's)` }];
  }
  return runUnknown(name, args, ctx);
};
