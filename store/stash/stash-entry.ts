// What a stash entry is made of: the manifest of `.loop/` entries, its mode tag, and how its id is derived.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { modeSchema } from '../../config/types.js';

const hexHash = z.string().regex(/^[0-9a-f]{64}$/, 'not a sha256 hex digest');
const entryPath = z.string().min(1);
const permissions = z.number().int().min(0).max(0o777);

/**
 * One entry of `.loop/` in a snapshot, by its `/`-separated path relative to `.loop/`. Files name
 * their content by sha256 (`blob`, an object in `.loop/.stash/objects/`); symbolic links keep their
 * target text and are never followed.
 */
export const stashEntrySchema = z.discriminatedUnion('type', [
  z.object({ path: entryPath, type: z.literal('dir'), mode: permissions }),
  z.object({ path: entryPath, type: z.literal('file'), mode: permissions, size: z.number().int().nonnegative(), blob: hexHash }),
  z.object({ path: entryPath, type: z.literal('symlink'), target: z.string().min(1) }),
]);
export type StashEntry = z.infer<typeof stashEntrySchema>;

/** The lifecycle a snapshot's files belonged to; `unknown` when `yoke.conf` had no valid `mode` line. */
export const modeTagSchema = z.union([modeSchema, z.literal('unknown')]);
export type ModeTag = z.infer<typeof modeTagSchema>;

/** The commands that change `.loop/` through the stash. */
export const STASH_OPS = ['stash', 'clean', 'pop', 'checkout', 'mode'] as const;
export const stashOpSchema = z.enum(STASH_OPS);
export type StashOp = z.infer<typeof stashOpSchema>;

/** The command line that runs a stash operation (`yoke stash`, `yoke clean`, `yoke stash pop`, …), as messages name it. */
export function stashCommandOf(op: StashOp): string {
  return op === 'stash' ? 'yoke stash' : op === 'clean' || op === 'mode' ? `yoke ${op}` : `yoke stash ${op}`;
}

/** A stash entry id: 64 hex digits. */
export const stashIdSchema = hexHash;

/** The sha256 of a manifest in its canonical form (entries sorted by path, fields in a fixed order). */
export function treeHash(entries: readonly StashEntry[]): string {
  return createHash('sha256').update(JSON.stringify(entries.map(canonicalEntry))).digest('hex');
}

/** What an entry's id is the hash of: its content (`tree`), tag, message, time, and place in the journal. */
export interface StashIdParts {
  tree: string;
  mode: ModeTag;
  message: string | null;
  /** ISO time of the `stash.begun` record */
  time: string;
  /** the journal's head hash before the operation began: no two entries share it */
  parent: string;
}

/**
 * The id of a stash entry, like a git commit's: the hash of the snapshot's content plus its tag,
 * message, time and parent. Two stashes of identical files therefore get different ids (so a full
 * id always names exactly one entry) while sharing every object.
 */
export function stashId(parts: StashIdParts): string {
  return createHash('sha256').update(JSON.stringify([parts.tree, parts.mode, parts.message, parts.time, parts.parent])).digest('hex');
}

/** Entries sorted by path (a folder sorts before everything inside it). */
export function sortEntries<T extends { path: string }>(entries: readonly T[]): T[] {
  return [...entries].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** The first path segment: the name directly in `.loop/`. */
export function topName(path: string): string {
  const slash = path.indexOf('/');
  return slash === -1 ? path : path.slice(0, slash);
}

function canonicalEntry(entry: StashEntry): StashEntry {
  switch (entry.type) {
    case 'dir':
      return { path: entry.path, type: 'dir', mode: entry.mode };
    case 'file':
      return { path: entry.path, type: 'file', mode: entry.mode, size: entry.size, blob: entry.blob };
    case 'symlink':
      return { path: entry.path, type: 'symlink', target: entry.target };
  }
}
