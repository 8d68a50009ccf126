// The protection baseline (DESIGN §16): the files that decide "done", as they were when the user
// last agreed to them. Journaled (workspace records and each run's input), so every decision about
// it replays; the digest names one baseline in reports and completion records.
import { createHash } from 'node:crypto';
import { z } from 'zod';

/** One protected file: its project-relative path, its type and permission bits, and the sha256 of its content (a blob). */
export const protectedFileSchema = z.object({
  path: z.string(),
  /** `stat.mode & 0o170777`: the file type (regular, symlink) and its permission bits, so `chmod -x` is a change */
  mode: z.number().int().nonnegative(),
  /** sha256 of the content (of the link text for a symlink); the blob that restores it */
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});
export type ProtectedFile = z.infer<typeof protectedFileSchema>;

/** A baseline: the resolved patterns (`auto` expanded), every file they cover, and the digest of both. */
export const protectionSchema = z.object({
  patterns: z.array(z.string()),
  files: z.array(protectedFileSchema),
  digest: z.string().regex(/^[0-9a-f]{64}$/),
});
export type Protection = z.infer<typeof protectionSchema>;

/** The file mode of a symlink, as `stat` reports its type bits. */
export const SYMLINK_MODE = 0o120000;

/** Sorted by path, so the digest does not depend on the order the files were listed in. */
export function sortFiles(files: readonly ProtectedFile[]): ProtectedFile[] {
  return [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * The digest of a baseline: sha256 over the sorted patterns and the sorted `path mode sha256`
 * lines. Any change to a protected file's content, mode or presence, or to what is protected,
 * changes it.
 */
export function protectionDigest(patterns: readonly string[], files: readonly ProtectedFile[]): string {
  const lines = [...[...patterns].sort().map((pattern) => `pattern ${pattern}`), ...sortFiles(files).map((file) => `file ${file.mode.toString(8)} ${file.sha256} ${file.path}`)];
  return createHash('sha256').update(`${lines.join('\n')}\n`).digest('hex');
}

/** A baseline built from its patterns and files (sorted, with its digest). */
export function makeProtection(patterns: readonly string[], files: readonly ProtectedFile[]): Protection {
  const sorted = sortFiles(files);
  return { patterns: [...patterns], files: sorted, digest: protectionDigest(patterns, sorted) };
}

/** Does the journaled digest still match the journaled patterns and files? (false = the record was edited) */
export function protectionSound(protection: Protection): boolean {
  return protectionDigest(protection.patterns, protection.files) === protection.digest;
}
