// Splits a command's arguments into options and operands, the way getopt-style tools read them.
import type { Arg } from './command-context.js';

/** The options seen (`-r` as `r`, `--force` as `force`), the values of valued options, and the operands. */
export interface SplitArgs {
  flags: Set<string>;
  values: Map<string, Arg[]>;
  operands: Arg[];
}

/** Which options take a value: short letters and long names. */
export interface OptionSpec {
  valued?: readonly string[];
  /** Options end at the first operand (`sudo`, `xargs`, `env`): the rest is a command. */
  stopAtOperand?: boolean;
}

function addValue(values: Map<string, Arg[]>, name: string, value: Arg): void {
  values.set(name, [...(values.get(name) ?? []), value]);
}

/**
 * Reads `args` as options then operands. `--` ends the options; an unknown word counts as an operand.
 * @example splitOptions([-rf, --, x]) // flags r, f; operands [x]
 */
export function splitOptions(args: readonly Arg[], spec: OptionSpec = {}): SplitArgs {
  const valued = new Set(spec.valued ?? []);
  const flags = new Set<string>();
  const values = new Map<string, Arg[]>();
  const operands: Arg[] = [];
  let i = 0;
  for (; i < args.length; i += 1) {
    const arg = args[i] as Arg;
    const text = arg.text;
    if (text === '--') { i += 1; break; }
    if (text === null || !text.startsWith('-') || text === '-') {
      if (spec.stopAtOperand === true) break;
      operands.push(arg);
      continue;
    }
    if (text.startsWith('--')) {
      const eq = text.indexOf('=');
      const name = eq === -1 ? text.slice(2) : text.slice(2, eq);
      flags.add(name);
      if (eq !== -1) addValue(values, name, { text: text.slice(eq + 1), glob: arg.glob });
      else if (valued.has(name)) { addValue(values, name, args[i + 1] ?? { text: null, glob: false }); i += 1; }
      continue;
    }
    for (let j = 1; j < text.length; j += 1) {
      const letter = text[j] ?? '';
      flags.add(letter);
      if (!valued.has(letter)) continue;
      const rest = text.slice(j + 1);
      if (rest !== '') addValue(values, letter, { text: rest, glob: arg.glob });
      else { addValue(values, letter, args[i + 1] ?? { text: null, glob: false }); i += 1; }
      break;
    }
  }
  return { flags, values, operands: [...operands, ...args.slice(i)] };
}

/** Whether any of `names` was given. */
export function hasFlag(split: SplitArgs, ...names: string[]): boolean {
  return names.some((name) => split.flags.has(name));
}
