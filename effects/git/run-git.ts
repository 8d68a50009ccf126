// Running one git command in the project and returning its stdout.
//
// Plain node:child_process rather than execa: git runs several times per iteration and execa's
// per-call machinery cost about as much as a short git command itself (issue #7).
import { spawn } from 'node:child_process';
import { childEnvironment } from '../process/child-environment.js';

/** Options for one git invocation. */
export interface GitOptions {
  /** added to the inherited environment (yoke's, without the store's credentials: git runs the project's hooks) */
  env?: Record<string, string>;
  /** written to stdin (otherwise stdin is empty) */
  input?: string;
}

/** How one git process ended. */
export interface GitOutcome {
  /** null when git could not be started or died of a signal */
  exitCode: number | null;
  stdout: string;
  stderr: string;
  /** why git could not be started or was killed, else null */
  failure: string | null;
}

/** Run `git <args>` in `root` and collect everything; never throws. */
export function spawnGit(root: string, args: string[], opts: GitOptions = {}): Promise<GitOutcome> {
  return collect('git', args, root, opts);
}

/**
 * Run a short `sh` script of git commands in `root` (`$1`… are `args`), and collect everything;
 * never throws. One process started from yoke instead of several: under load, each process node
 * starts costs about twice what the same process costs when started by a shell (issue #7).
 */
export function spawnGitScript(root: string, script: string, args: string[], opts: GitOptions = {}): Promise<GitOutcome> {
  return collect('sh', ['-c', script, 'yoke-git', ...args], root, opts);
}

function collect(command: string, args: string[], root: string, opts: GitOptions): Promise<GitOutcome> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, env: { ...childEnvironment(), ...opts.env }, stdio: 'pipe' });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    let settled = false;
    const settle = (outcome: GitOutcome): void => {
      if (settled) return;
      settled = true;
      resolve(outcome);
    };
    const collected = (): { stdout: string; stderr: string } => ({
      stdout: Buffer.concat(stdout).toString('utf8'),
      stderr: Buffer.concat(stderr).toString('utf8'),
    });
    // A failed start emits 'error' (and possibly a 'close' with a negative code): the first wins.
    child.on('error', (error) => settle({ exitCode: null, ...collected(), failure: error.message }));
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    child.stdin.on('error', () => undefined); // EPIPE when git exits without reading its input
    child.stdin.end(opts.input ?? '');
    child.on('close', (code, signal) => {
      settle({ exitCode: code, ...collected(), failure: signal === null ? null : `killed by ${signal}` });
    });
  });
}

/** Run `git <args>` in `root`; resolves stdout (untrimmed), throws with git's stderr on a non-zero exit. */
export async function runGit(root: string, args: string[], opts: GitOptions = {}): Promise<string> {
  const result = await spawnGit(root, args, opts);
  if (result.exitCode !== 0) throw gitError(root, args, result);
  return result.stdout;
}

/** Run `git <args>` in `root` for its exit status only (e.g. `diff --quiet`); throws only when git cannot start. */
export async function gitExitCode(root: string, args: string[], opts: GitOptions = {}): Promise<number> {
  const result = await spawnGit(root, args, opts);
  if (result.exitCode === null) throw new Error(`git ${args.join(' ')} could not run in ${root}: ${result.failure ?? 'unknown reason'}`);
  return result.exitCode;
}

/** The error for a git command that failed: git's own message, else why it did not run. */
export function gitError(root: string, args: string[], result: GitOutcome): Error {
  const detail = result.stderr.trim() || result.failure || `exit code ${String(result.exitCode)}`;
  return new Error(`git ${args.join(' ')} failed in ${root}: ${detail}`);
}
