// .yoke/canon.lock: every path `yoke retrofit` generated, who owns what in it, and the hashes that
// tell yoke's content from the user's edits. Deterministic (sorted, no clock) so a re-run that
// changes nothing leaves it byte for byte.
import { z } from 'zod';
import { RETROFIT_AGENTS, type RetrofitAgent } from './retrofit-agents.js';
import { isGeneratedPath } from './retrofit-artifacts.js';

/** Where the lock lives in the project. */
export const LOCK_PATH = '.yoke/canon.lock';

const hash = z.string().regex(/^sha256:[0-9a-f]{64}$/);

/** One generated path. */
export const lockEntrySchema = z.object({
  /**
   * file: the whole file is yoke's; block: the marked block inside it; keys: yoke's items in a JSON
   * file; seed: yoke created it once and it is the user's since (context templates).
   */
  owner: z.enum(['file', 'block', 'keys', 'seed']),
  /** hash of what the canon asked for (the file, the block's body, the JSON parts) */
  source: hash,
  /** hash of what yoke wrote and owns (the file, the block with its markers, the parts as found); null when the path held the user's own file first */
  written: hash.nullable(),
  /** yoke created the file: the hash of the whole file as yoke last wrote it (a block or keys file that is only yoke's) */
  file: hash.optional(),
  /** hash of the `<path>.yoke-new` yoke wrote because the user had edited the path */
  pending: hash.optional(),
}).strict();

/** One generated path. */
export type LockEntry = z.infer<typeof lockEntrySchema>;

/** The whole lock. */
export const canonLockSchema = z.object({
  version: z.literal(1),
  /** the canon manifest's version */
  canon: z.number().int().min(1),
  /** the agents installed for */
  agents: z.array(z.enum(RETROFIT_AGENTS)),
  files: z.record(z.string(), lockEntrySchema),
}).strict();

/** The whole lock. */
export type CanonLock = z.infer<typeof canonLockSchema>;

/** The lock's text: sorted paths, two-space JSON, one trailing newline. */
export function renderLock(lock: CanonLock): string {
  const files = Object.fromEntries(Object.keys(lock.files).sort().map((path) => {
    const entry = lock.files[path]!;
    const ordered: Record<string, unknown> = { owner: entry.owner, source: entry.source, written: entry.written };
    if (entry.file !== undefined) ordered.file = entry.file;
    if (entry.pending !== undefined) ordered.pending = entry.pending;
    return [path, ordered];
  }));
  return `${JSON.stringify({ version: lock.version, canon: lock.canon, agents: sortAgents(lock.agents), files }, null, 2)}\n`;
}

/** Agents in their canonical order. */
export function sortAgents(agents: readonly RetrofitAgent[]): RetrofitAgent[] {
  return RETROFIT_AGENTS.filter((agent) => agents.includes(agent));
}

/** The 1-based line of the lock's text that holds `"<path>":` (1 when it cannot be told). */
function lineOf(text: string, path: string): number {
  const key = `${JSON.stringify(path)}:`;
  const index = text.split('\n').findIndex((line) => line.includes(key));
  return index < 0 ? 1 : index + 1;
}

/**
 * Parse the lock's text; a damaged lock is a problem to report (with its line when one path is the
 * problem), never guessed around. Every path must be one yoke can generate: a lock is committed,
 * so a hand-edited or hostile one must never make yoke delete or write anything else (`../x`,
 * an absolute path, `.git/…`, a user's file).
 */
export function parseLock(text: string): { lock: CanonLock; problem: null } | { lock: null; problem: string; line?: number } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return { lock: null, problem: `not valid JSON (${error instanceof Error ? error.message : String(error)})` };
  }
  const parsed = canonLockSchema.safeParse(raw);
  if (!parsed.success) return { lock: null, problem: z.prettifyError(parsed.error).split('\n').join(' ') };
  for (const path of Object.keys(parsed.data.files)) {
    if (isGeneratedPath(path)) continue;
    const why = path.startsWith('/') || /^[A-Za-z]:[\\/]/.test(path) ? 'an absolute path'
      : path.split(/[\\/]/).includes('..') ? 'a path that leaves the project'
        : path.split('/')[0] === '.git' ? 'a path inside .git/'
          : 'a path yoke never generates';
    return { lock: null, problem: `${JSON.stringify(path)} is ${why}, so yoke will not write or delete it`, line: lineOf(text, path) };
  }
  return { lock: parsed.data, problem: null };
}
