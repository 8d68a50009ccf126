// A git project whose `.loop/` holds a given tree, and running the stash commands on it.
import { expect } from 'vitest';
import { readJournalFile } from '../../store/journal/file/journal-file.js';
import { foldStashIndex, type StashIndex } from '../../store/stash/stash-index.js';
import { journalPath } from './journal-records.js';
import { writeTree, type TreeSpec } from './loop-tree.js';
import { makeWorkspace, runYoke, type Workspace } from './workspace.js';
import type { YokeResult } from './yoke-process.js';

/** Build a committed project with `.loop/.gitignore` (as `yoke init` writes it) and `tree` in `.loop/`. */
export async function makeStashWorkspace(tree: TreeSpec = {}): Promise<Workspace & { loop: string }> {
  const ws = await makeWorkspace({ 'README.md': 'project\n', '.loop/.gitignore': '.journal/\n.stash/\n' });
  writeTree(ws.abs('.loop'), tree);
  return Object.assign(ws, { loop: ws.abs('.loop') });
}

/** Run yoke and insist on the exit code (stderr is the failure message). */
export async function yokeOk(ws: { path: string }, args: string[], code = 0, env: Record<string, string> = {}): Promise<YokeResult> {
  const result = await runYoke(ws, args, { env });
  expect(result.exitCode, `yoke ${args.join(' ')}\n${result.stderr}`).toBe(code);
  return result;
}

/** The fields `--json` prints for a stash entry. */
export interface EntryJson {
  id: string;
  /** sha256 of the manifest: equal trees mean identical files */
  tree: string;
  time: string;
  mode: string;
  message: string | null;
  via: string;
  files: number;
  bytes: number;
  seq: number;
  popped: boolean;
  restores: { via: string; seq: number; time: string }[];
}

/** Run a stash command with `--json` (exit 0) and parse its one line of output. */
export async function yokeJson<T>(ws: { path: string }, args: string[], env: Record<string, string> = {}): Promise<T> {
  const result = await yokeOk(ws, [...args, '--json'], 0, env);
  return JSON.parse(result.stdout) as T;
}

/** `yoke stash list --json`: entries newest first, and an interrupted operation if any. */
export function stashList(ws: { path: string }): Promise<{ entries: EntryJson[]; interrupted: { op: string; seq: number } | null }> {
  return yokeJson(ws, ['stash', 'list']);
}

/** The stash index folded in-process from the workspace's journal (oldest first; no CLI call). */
export function readIndex(ws: { path: string }): StashIndex {
  const path = journalPath(ws.path);
  return foldStashIndex(readJournalFile(path).records, (seq) => `${path}:${seq}`);
}
