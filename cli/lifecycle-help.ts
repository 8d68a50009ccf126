// The lifecycles as `yoke init --help` and `yoke mode --help` show them, from their descriptors.
import type { LifecycleDescriptor } from '../machines/lifecycles/lifecycle-descriptor.js';

/** What the help shows of a lifecycle: its name and one-line summary, and whether the fleet takes jobs for it. */
export type LifecycleSummary = Pick<LifecycleDescriptor, 'name' | 'summary' | 'fleet'>;

/** The commands whose help or choices list the lifecycles (the registry is loaded only when one of them is on the command line). */
export const LIFECYCLE_COMMANDS: readonly string[] = ['init', 'mode', 'queue'];

/** Does this command line reach a command that lists the lifecycles (`yoke init …`, `yoke help mode`)? */
export function showsLifecycles(args: readonly string[]): boolean {
  return args.some((arg) => LIFECYCLE_COMMANDS.includes(arg));
}

/** The `<mode>` argument's description: `loop | brute | saga | goal`. */
export function modeArgumentHelp(lifecycles: readonly LifecycleSummary[]): string {
  return lifecycles.length === 0 ? 'a lifecycle' : lifecycles.map((lifecycle) => lifecycle.name).join(' | ');
}

/** The block after the options: each lifecycle with its summary, aligned. */
export function lifecyclesHelp(lifecycles: readonly LifecycleSummary[]): string {
  if (lifecycles.length === 0) return '';
  const width = Math.max(...lifecycles.map((lifecycle) => lifecycle.name.length));
  return ['', 'Modes:', ...lifecycles.map((lifecycle) => `  ${lifecycle.name.padEnd(width)}  ${lifecycle.summary}`)].join('\n');
}

/** The modes `yoke queue add --mode` accepts: the lifecycles the fleet takes jobs for. */
export function fleetModes(lifecycles: readonly LifecycleSummary[]): string[] {
  return lifecycles.filter((lifecycle) => lifecycle.fleet === true).map((lifecycle) => lifecycle.name);
}
