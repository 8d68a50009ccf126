// Listing and hashing the files `protect` patterns cover, git-ignored ones included (DESIGN §16).
import { lstat, readdir, readFile, readlink, realpath } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { patternBase, patternsCover } from '../../machines/protect/protect-pattern.js';
import { makeProtection, SYMLINK_MODE, sortFiles, type ProtectedFile } from '../../machines/protect/protection.js';
import { putBlob, sha256 } from '../fs/blob-store.js';

/** A protected file with its content (the link text for a symlink). */
export interface ListedFile extends ProtectedFile {
  content: Buffer;
}

/** A symlink a pattern covers whose target is outside the project. */
export interface EscapingLink {
  path: string;
  target: string;
  pattern: string;
}

/** Folders never listed: git's own, yoke's workspace, and dependency trees (unless a pattern starts inside one). */
function skipped(path: string, base: string): boolean {
  if (path === '.git' || path === '.loop') return true;
  const name = path.split('/').at(-1);
  return name === 'node_modules' && !base.split('/').includes('node_modules');
}

async function walk(root: string, path: string, base: string, found: Set<string>): Promise<void> {
  const info = await lstat(join(root, path)).catch(() => null);
  if (info === null) return;
  if (!info.isDirectory()) {
    if (info.isFile() || info.isSymbolicLink()) found.add(path);
    return;
  }
  if (path !== '' && skipped(path, base)) return;
  const entries = await readdir(join(root, path));
  for (const entry of entries.sort()) {
    const child = path === '' ? entry : `${path}/${entry}`;
    if (path === '' && skipped(child, base)) continue;
    await walk(root, child, base, found);
  }
}

/**
 * Every file (regular or symlink, never followed) under `root` that one of `patterns` covers,
 * with its mode (`stat.mode & 0o170777`), sha256 and content, sorted by path. Each pattern's static
 * folder is walked whatever git ignores; `.git/`, `.loop/` and `node_modules/` are not.
 */
export async function listProtected(root: string, patterns: readonly string[]): Promise<ListedFile[]> {
  const found = new Set<string>();
  for (const pattern of patterns) {
    const base = patternBase(pattern);
    if (base.split('/')[0] === '.loop' || base.split('/')[0] === '.git') continue;
    await walk(root, base, base, found);
  }
  const files: ListedFile[] = [];
  for (const path of found) {
    if (!patternsCover(patterns, path)) continue;
    const info = await lstat(join(root, path)).catch(() => null);
    if (info === null) continue;
    const content = info.isSymbolicLink() ? Buffer.from(await readlink(join(root, path))) : await readFile(join(root, path));
    files.push({ path, mode: info.isSymbolicLink() ? SYMLINK_MODE | (info.mode & 0o777) : info.mode & 0o170777, sha256: sha256(content), content });
  }
  return sortFiles(files) as ListedFile[];
}

/** The covered symlinks whose target resolves outside `root` (a dangling one counts by its written target). */
export async function escapingLinks(root: string, files: readonly ListedFile[], patterns: readonly string[]): Promise<EscapingLink[]> {
  const top = await realpath(root);
  const links: EscapingLink[] = [];
  for (const file of files) {
    if ((file.mode & 0o170000) !== SYMLINK_MODE) continue;
    const written = file.content.toString();
    const target = await realpath(join(root, file.path)).catch(() => resolve(join(root, file.path, '..'), written));
    const rel = relative(top, target);
    if (rel === '..' || rel.startsWith('../') || isAbsolute(rel)) {
      links.push({ path: file.path, target: written, pattern: patterns.find((pattern) => patternsCover([pattern], file.path)) ?? '' });
    }
  }
  return links;
}

/** Keep every listed file's content as a blob (its sha256 names it), so a baseline can be restored and an agent's version is never lost. */
export async function keepBlobs(loopDir: string, files: readonly ListedFile[]): Promise<ProtectedFile[]> {
  const kept: ProtectedFile[] = [];
  for (const { content, ...file } of files) {
    await putBlob(loopDir, content);
    kept.push(file);
  }
  return kept;
}

/** The digest a baseline of `patterns` taken now would have: what the protected files are, as one hash (DESIGN §16). */
export async function measureProtection(root: string, patterns: readonly string[]): Promise<string> {
  const files = await listProtected(root, patterns);
  return makeProtection(patterns, files.map(({ content: _content, ...file }) => file)).digest;
}
