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

/**
 * Put the unfinished run's spec backups into a fresh checkout at `dir`: from yoke_blob, else from
 * git (the spec file at the commit the run began on), each checked against its hash. Returns the
 * hashes still missing (the run then cannot resume: `yoke run` says so).
 */
export async function restoreBlobs(client: PoolClient, workspace: string, dir: string, position: RunPosition): Promise<string[]> {
  const wanted = Object.entries(position.specBlobs).filter((entry): entry is [string, string] => entry[1] !== null);
  if (wanted.length === 0) return [];
  await mkdir(blobsDir(dir), { recursive: true });
  const missing: string[] = [];
  const stored = await client.query<{ key: string; bytes: Buffer }>('SELECT key, bytes FROM yoke_blob WHERE workspace = $1 AND key = ANY($2)', [workspace, wanted.map(([, hash]) => hash)]);
  for (const [name, hash] of wanted) {
    let content = stored.rows.find((row) => row.key === hash)?.bytes ?? null;
    if ((content === null || sha256(content) !== hash) && position.baselineHead !== null) {
      const shown = await spawnGit(dir, ['cat-file', 'blob', `${position.baselineHead}:.loop/${name}`]);
      content = shown.exitCode === 0 ? Buffer.from(shown.stdout, 'utf8') : null;
    }
    if (content === null || sha256(content) !== hash) {
      missing.push(hash);
      continue;
    }
    const path = join(blobsDir(dir), hash);
    await writeFile(path, content);
    await chmod(path, 0o444);
  }
  return missing;
}
