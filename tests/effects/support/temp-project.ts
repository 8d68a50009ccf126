// Throwaway git projects for effect tests: a temp work tree with `.loop/` and its `.gitignore`.
import { appendFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { execa } from 'execa';

/** A temp project (git work tree) with `.loop/`. */
export interface TempProject {
  root: string;
  loopDir: string;
  /** write a file relative to the root, creating folders */
  write(rel: string, content: string): Promise<void>;
  /** run git in the root; resolves trimmed stdout */
  git(...args: string[]): Promise<string>;
  cleanup(): Promise<void>;
}

/**
 * Create a project from inline files (paths relative to the root). `commit` makes an initial commit
 * of them; `git: false` skips `git init` for handlers that never call git.
 */
export async function makeProject(
  files: Record<string, string> = {},
  opts: { commit?: boolean; git?: boolean } = {},
): Promise<TempProject> {
  const root = await mkdtemp(join(tmpdir(), 'yoke-effects-'));
  const loopDir = join(root, '.loop');
  const git = async (...args: string[]): Promise<string> => (await execa('git', args, { cwd: root })).stdout.trim();
  const write = async (rel: string, content: string): Promise<void> => {
    await mkdir(dirname(join(root, rel)), { recursive: true });
    await writeFile(join(root, rel), content);
  };
  if (opts.git ?? true) {
    await git('init', '-q', '-b', 'main');
    await appendFile(join(root, '.git', 'config'), '[user]\n\tname = Test\n\temail = test@example.com\n');
  }
  await write('.loop/.gitignore', '.journal/\n.stash/\n');
  for (const [rel, content] of Object.entries(files)) await write(rel, content);
  if (opts.commit) {
    await git('add', '-A');
    await git('commit', '-q', '-m', 'initial');
  }
  return { root, loopDir, write, git, cleanup: () => rm(root, { recursive: true, force: true }) };
}
