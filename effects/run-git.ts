// Running one git command in the project and returning its stdout.
import { execa } from 'execa';

/** Options for one git invocation. */
export interface GitOptions {
  /** added to the inherited environment */
  env?: Record<string, string>;
  /** written to stdin (otherwise stdin is empty) */
  input?: string;
}

/** Run `git <args>` in `root`; resolves stdout (untrimmed), throws with git's stderr on a non-zero exit. */
export async function runGit(root: string, args: string[], opts: GitOptions = {}): Promise<string> {
  const result = await execa('git', args, {
    cwd: root,
    env: opts.env,
    input: opts.input ?? '',
    stripFinalNewline: false,
    reject: false,
  });
  if (result.exitCode !== 0 || result.failed) {
    const detail = String(result.stderr).trim() || result.shortMessage;
    throw new Error(`git ${args.join(' ')} failed in ${root}: ${detail}`);
  }
  return String(result.stdout);
}

/** Run `git <args>` in `root` for its exit status only (e.g. `diff --quiet`); throws only when git cannot start. */
export async function gitExitCode(root: string, args: string[], opts: GitOptions = {}): Promise<number> {
  const result = await execa('git', args, { cwd: root, env: opts.env, input: opts.input ?? '', reject: false });
  if (result.exitCode === undefined) throw new Error(`git ${args.join(' ')} could not run in ${root}: ${result.shortMessage}`);
  return result.exitCode;
}
