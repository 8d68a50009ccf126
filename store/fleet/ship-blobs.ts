// The spec-file backups a run resumes from, shipped with the journal: a worker uploads its checkouts' blobs to yoke_blob, and restores them into a fresh checkout.
import { createHash } from 'node:crypto';
import { chmod, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { PoolClient } from 'pg';
import { journalEntry } from '../../config/workspace-layout.js';
import { spawnGit } from '../../effects/git/run-git.js';
import type { RunPosition } from './journal-position.js';

const HASH = /^[0-9a-f]{64}$/;

function blobsDir(dir: string): string {
  return journalEntry(join(dir, '.loop'), 'blobs');
}

function sha256(content: Buffer): string {
  return createHash('sha256').update(content).digest('hex');
}

/** Upload every blob of the checkout at `dir` not in `known` yet (content-addressed: a blob already stored is left alone). */
export async function uploadBlobs(client: PoolClient, workspace: string, dir: string, known: Set<string>): Promise<number> {
  let names: string[];
  try {
    names = await readdir(blobsDir(dir));
  } catch {
    return 0;
  }
  let uploaded = 0;
  for (const name of names) {
    if (!HASH.test(name) || known.has(name)) continue;
    const content = await readFile(join(blobsDir(dir), name));
    if (sha256(content) !== name) continue; // half-written or damaged: not shipped
    await client.query('INSERT INTO yoke_blob (workspace, key, bytes) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [workspace, name, content]);
    known.add(name);
    uploaded += 1;
  }
  return uploaded;
}

/** A spec backup a resumed run needs that could not be restored: the file it backs up and its blob. */
export interface MissingBackup {
  file: string;
  hash: string;
}

/**
 * Put the unfinished run's blobs into a fresh checkout at `dir`: every blob its journal names that
 * the store holds (spec backups, displaced content, protected files), and each spec backup it
 * restores from (`specFiles`) also from git when the store lacks it: the spec file as the run's
 * first commit or any commit it journaled holds it, checked against its hash. Returns the spec
 * backups still missing: the run then cannot resume (its next `spec.restore` would need them).
 */
export async function restoreBlobs(client: PoolClient, workspace: string, dir: string, position: RunPosition): Promise<MissingBackup[]> {
  const wanted = new Set([...position.blobs, ...Object.values(position.specFiles).filter((hash): hash is string => hash !== null)]);
  if (wanted.size === 0) return [];
  await mkdir(blobsDir(dir), { recursive: true });
  const restored = new Set<string>();
  const stored = await client.query<{ key: string; bytes: Buffer }>('SELECT key, bytes FROM yoke_blob WHERE workspace = $1 AND key = ANY($2)', [workspace, [...wanted]]);
  for (const row of stored.rows) {
    if (sha256(row.bytes) !== row.key) continue;
    await writeBlob(dir, row.key, row.bytes);
    restored.add(row.key);
  }
  const sources = [...new Set([...position.commits].reverse().concat(position.baselineHead ?? []))];
  const missing: MissingBackup[] = [];
  for (const [file, hash] of Object.entries(position.specFiles)) {
    if (hash === null || restored.has(hash)) continue;
    const content = await fromGit(dir, file, hash, sources);
    if (content === null) {
      missing.push({ file, hash });
      continue;
    }
    await writeBlob(dir, hash, content);
    restored.add(hash);
  }
  return missing;
}

/** `.loop/<file>` as one of the `commits` holds it with this hash, or null. */
async function fromGit(dir: string, file: string, hash: string, commits: readonly string[]): Promise<Buffer | null> {
  for (const commit of commits) {
    const shown = await spawnGit(dir, ['cat-file', 'blob', `${commit}:.loop/${file}`]);
    if (shown.exitCode !== 0) continue;
    const content = Buffer.from(shown.stdout, 'utf8');
    if (sha256(content) === hash) return content;
  }
  return null;
}

async function writeBlob(dir: string, hash: string, content: Buffer): Promise<void> {
  const path = join(blobsDir(dir), hash);
  await writeFile(path, content);
  await chmod(path, 0o444);
}
