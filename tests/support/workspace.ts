// Throwaway git projects for end-to-end tests, built from inline file literals.
//
// Layout: `<tmp>/project` is the git work tree yoke runs in (`ws.path`); `<tmp>/side` holds files
// the tests and the fake agent use to observe a run (call log, recorded files, guard markers), kept
// outside the project so they never show up in yoke's boundary check or commits.
import { mkdtemp, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { execa } from 'execa';

export { yokeBin, runYoke, startYoke } from './yoke-process.js';
export { agentCalls, fakeAgentCommand, writeScript } from './fake-agent-script.js';
export { loopConf, loopFiles } from './loop-conf.js';

/** One commit as `git log` shows it. */
export interface LogEntry {
  sha: string;
  subject: string;
  /** the full message, trailers included */
  message: string;
}

/** A temp git project plus a side folder for observations. */
export interface Workspace {
  /** absolute path of the project root (the git work tree) */
  path: string;
  /** absolute path of the side folder (outside the project) */
  sideDir: string;
  /** absolute path of a file in the side folder */
  side(name: string): string;
  /** a side file's content, or null when it does not exist */
  sideText(name: string): Promise<string | null>;
  /** a side file's non-empty lines ([] when it does not exist) */
  sideLines(name: string): Promise<string[]>;
  /** absolute path of a project file */
  abs(rel: string): string;
  read(rel: string): Promise<string>;
  exists(rel: string): Promise<boolean>;
  write(rel: string, content: string): Promise<void>;
  /** commits on HEAD, newest first (empty before the first commit) */
  gitLog(): Promise<LogEntry[]>;
  /** run git in the project */
  git(args: string[]): Promise<string>;
  cleanup(): Promise<void>;
}

export interface WorkspaceOptions {
  /** make an initial commit of all files (default true) */
  commit?: boolean;
}

/** Where a workspace lives, for building file contents that mention its paths. */
export interface WorkspacePaths {
  path: string;
  sideDir: string;
  side(name: string): string;
}

/** Project-relative path → content; or a function of the workspace's paths returning that. */
export type WorkspaceFiles = Record<string, string> | ((paths: WorkspacePaths) => Record<string, string>);

/** Create a git project from `files` (project-relative path → content). */
export async function makeWorkspace(files: WorkspaceFiles, opts: WorkspaceOptions = {}): Promise<Workspace> {
  const root = await mkdtemp(join(tmpdir(), 'yoke-e2e-'));
  const project = join(root, 'project');
  const sideDir = join(root, 'side');
  await mkdir(project);
  await mkdir(sideDir);
  const git = async (args: string[]): Promise<string> =>
    (await execa('git', args, { cwd: project, stdin: 'ignore' })).stdout;
  await git(['init', '-q']);
  await git(['config', 'user.name', 'Yoke Test']);
  await git(['config', 'user.email', 'yoke-test@example.invalid']);
  await git(['config', 'commit.gpgsign', 'false']);

  const side = (name: string): string => join(sideDir, name);
  const sideText = async (name: string): Promise<string | null> => {
    try {
      return await readFile(side(name), 'utf8');
    } catch {
      return null;
    }
  };
  const abs = (rel: string): string => join(project, rel);
  const write = async (rel: string, content: string): Promise<void> => {
    await mkdir(dirname(abs(rel)), { recursive: true });
    await writeFile(abs(rel), content);
  };
  const contents = typeof files === 'function' ? files({ path: project, sideDir, side }) : files;
  for (const [rel, content] of Object.entries(contents)) await write(rel, content);
  if (opts.commit ?? true) {
    await git(['add', '-A']);
    await git(['commit', '-q', '--allow-empty', '-m', 'initial']);
  }

  return {
    path: project,
    sideDir,
    side,
    sideText,
    sideLines: async (name) => ((await sideText(name)) ?? '').split('\n').filter((line) => line.trim() !== ''),
    abs,
    read: (rel) => readFile(abs(rel), 'utf8'),
    exists: async (rel) => {
      try {
        await stat(abs(rel));
        return true;
      } catch {
        return false;
      }
    },
    write,
    git,
    gitLog: async () => {
      const result = await execa('git', ['log', '--format=%H%x00%s%x00%B%x1e'], { cwd: project, reject: false, stdin: 'ignore' });
      if (result.exitCode !== 0) return [];
      return result.stdout
        .split('\x1e')
        .map((record) => record.trim())
        .filter((record) => record !== '')
        .map((record) => {
          const [sha = '', subject = '', message = ''] = record.split('\x00');
          return { sha, subject, message };
        });
    },
    cleanup: () => rm(root, { recursive: true, force: true }),
  };
}
