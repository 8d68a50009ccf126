// The commands that must start fast (`--version`, `status`, the `gate` hook), recognized without loading commander.
import { GATE_AGENTS, type GateAgent } from './gate-output.js';
import { yokeVersion } from './version.js';

/** A command ready to run, resolving to its exit code. */
export type FastCommand = () => Promise<number>;

const STATUS_FLAGS = new Set(['--json', '--watch']);

/** The hook command `yoke gate --agent <name>` (or `--agent=<name>`), run on every tool call: its agent, else null. */
function gateAgent(args: readonly string[]): GateAgent | null {
  if (args[0] !== 'gate') return null;
  const rest = args.slice(1);
  const name = rest.length === 2 && rest[0] === '--agent' ? rest[1] : rest.length === 1 && rest[0]?.startsWith('--agent=') ? rest[0].slice('--agent='.length) : undefined;
  return name !== undefined && (GATE_AGENTS as readonly string[]).includes(name) ? (name as GateAgent) : null;
}

/**
 * `yoke --version` / `-V`, `yoke gate --agent <name>` and `yoke status [--json] [--watch]` exactly as commander would parse
 * them; anything else (help, unknown or repeated flags, other commands) → null, and the full
 * commander program handles it. The program defines the same flags: `tests/cli/fast-path.test.ts`
 * checks both agree.
 */
export function fastPath(args: readonly string[]): FastCommand | null {
  if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
    return () => {
      process.stdout.write(`${yokeVersion()}\n`);
      return Promise.resolve(0);
    };
  }
  const gate = gateAgent(args);
  if (gate !== null) {
    return async () => {
      const { gateCommand } = await import('./commands/gate.js');
      return gateCommand(gate);
    };
  }
  if (args[0] !== 'status') return null;
  const flags = args.slice(1);
  if (new Set(flags).size !== flags.length || !flags.every((flag) => STATUS_FLAGS.has(flag))) return null;
  return async () => {
    const { statusCommand } = await import('./commands/status.js');
    return statusCommand({ json: flags.includes('--json'), watch: flags.includes('--watch') });
  };
}
