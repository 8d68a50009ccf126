// A worker's earlier checkout of a workspace is removed before the next attempt clones it again: its agent transcripts, hook logs and usage files are moved aside first.
import { access, mkdir, readdir, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { JOURNAL_LAYOUT } from '../../config/workspace-layout.js';

/** The evidence kept from `.loop/.journal/` (a parallel lane's `.loop/.journal` links to it): written once, read by people, never by yoke. */
const KEPT = ['transcripts', 'hooks', 'usage'] as const;

/**
 * Move the transcripts, hook logs and usage files of the checkout at `checkout` into
 * `<into>/transcripts/`, `<into>/hooks/` and `<into>/usage/`. A name already taken there (an earlier attempt's call of the same key) gets a
 * `.N` suffix: nothing is overwritten. Returns how many files were moved.
 */
export async function keepTranscripts(checkout: string, into: string): Promise<number> {
  let moved = 0;
  for (const entry of KEPT) {
    const from = join(checkout, '.loop', '.journal', JOURNAL_LAYOUT[entry]);
    const files = await names(from);
    if (files.length === 0) continue;
    const to = join(into, entry);
    await mkdir(to, { recursive: true });
    for (const file of files) {
      await rename(join(from, file), await freeName(to, file));
      moved += 1;
    }
  }
  return moved;
}

async function names(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch {
    return [];
  }
}

async function freeName(dir: string, file: string): Promise<string> {
  for (let n = 1; ; n += 1) {
    const candidate = join(dir, n === 1 ? file : `${file}.${n}`);
    const taken = await access(candidate).then(() => true, () => false);
    if (!taken) return candidate;
  }
}
