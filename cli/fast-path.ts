// The commands that must start fast (`--version`, `status`), recognized without loading commander.
import { yokeVersion } from './version.js';

/** A command ready to run, resolving to its exit code. */
export type FastCommand = () => Promise<number>;

const STATUS_FLAGS = new Set(['--json', '--watch']);

/**
 * `yoke --version` / `-V` and `yoke status [--json] [--watch]` exactly as commander would parse
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
  if (args[0] !== 'status') return null;
  const flags = args.slice(1);
  if (new Set(flags).size !== flags.length || !flags.every((flag) => STATUS_FLAGS.has(flag))) return null;
  return async () => {
    const { statusCommand } = await import('./commands/status.js');
    return statusCommand({ json: flags.includes('--json'), watch: flags.includes('--watch') });
  };
}
