// The protected files as they are on disk, next to the baseline the journal holds (DESIGN §16):
// read-only, shared by `yoke run`'s gate, `yoke protect status|refresh` and `yoke check`.
import { statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Config } from '../../config/types.js';
import { blobPath, readBlobFile } from '../../effects/fs/blob-store.js';
import { escapingLinks, listProtected, type ListedFile } from '../../effects/protect/list-protected.js';
import { resolveProtectPatterns } from '../../machines/protect/auto-protect.js';
import { patternCovers } from '../../machines/protect/protect-pattern.js';
import { protectionDrift, type Drift } from '../../machines/protect/protection-drift.js';
import { makeProtection, SYMLINK_MODE, type Protection } from '../../machines/protect/protection.js';
import { diffSummary } from '../../machines/retrofit/line-diff.js';
import { YokeError } from '../../errors/yoke-error.js';
import type { JournalRecord } from '../journal/record.js';
import { protectionHistory, type ProtectionHistory } from '../projections/protection-history.js';
import { autoProtectStories } from './auto-protect-stories.js';
import type { WorkspacePaths } from './workspace-paths.js';

/** What is protected now against what the baseline says. */
export interface ProtectionInspection {
  /** the config's patterns, `auto` expanded */
  patterns: string[];
  /** the files they cover on disk now, with their content */
  listed: ListedFile[];
  /** the baseline as it would be taken now */
  current: Protection;
  history: ProtectionHistory;
  /** every covered file that differs from the baseline (empty without a baseline) */
  drift: Drift[];
  /** patterns the config has that the baseline lacks, and the reverse */
  patternsAdded: string[];
  patternsRemoved: string[];
}

/** Is `path` (relative to `root`) a file? For `protect auto`'s inference. */
function fileAt(root: string): (path: string) => boolean {
  return (path) => statSync(join(root, path), { throwIfNoEntry: false })?.isFile() ?? false;
}

/** The `yoke.conf` line that brought `pattern` in: its own, or the `protect auto` line. */
export function patternLine(config: Config, pattern: string): number | null {
  const own = config.protect?.find((entry) => entry.pattern === pattern);
  return (own ?? config.protect?.find((entry) => entry.pattern === 'auto'))?.line ?? null;
}

/**
 * The config's protected files now and the journal's baseline. A covered symlink that leads out of
 * the project refuses (a `usage` error naming yoke.conf's line): yoke never protects, hashes or
 * restores anything outside the project.
 */
export async function inspectProtection(paths: WorkspacePaths, config: Config | null, records: Iterable<JournalRecord>): Promise<ProtectionInspection> {
  const patterns = config === null ? [] : resolveProtectPatterns(config, fileAt(paths.root), autoProtectStories(paths, config));
  const listed = await listProtected(paths.root, patterns);
  const [escape] = await escapingLinks(paths.root, listed, patterns);
  if (escape !== undefined) {
    const line = config === null ? null : patternLine(config, escape.pattern);
    const where = `${relative(process.cwd(), paths.conf) || paths.conf}${line === null ? '' : `:${line}`}`;
    throw new YokeError('usage', `${where}: \`protect ${escape.pattern}\` covers \`${escape.path}\`, a symlink to \`${escape.target}\` outside the project; yoke protects only files inside it — remove the link or narrow the pattern.`);
  }
  const history = protectionHistory(records);
  const current = makeProtection(patterns, listed.map(({ content: _content, ...file }) => file));
  const baseline = history.baseline;
  const drift = baseline === null ? [] : protectionDrift(baseline.files.filter((file) => patterns.some((p) => patternCovers(p, file.path))), current.files.filter((file) => baseline.patterns.some((p) => patternCovers(p, file.path))));
  return {
    patterns,
    listed,
    current,
    history,
    drift,
    patternsAdded: baseline === null ? [] : patterns.filter((pattern) => !baseline.patterns.includes(pattern)),
    patternsRemoved: baseline === null ? [] : baseline.patterns.filter((pattern) => !patterns.includes(pattern)),
  };
}

/** Has anything protected changed since the baseline (files, or what the patterns are)? */
export function protectionChanged(inspection: ProtectionInspection): boolean {
  return inspection.drift.length > 0 || inspection.patternsAdded.length > 0 || inspection.patternsRemoved.length > 0;
}

/** One line per change for the user: the path, how it changed and a line count (`+3 −1 lines`). */
export async function describeChanges(paths: WorkspacePaths, inspection: ProtectionInspection): Promise<string[]> {
  const lines: string[] = [];
  for (const pattern of inspection.patternsAdded) lines.push(`  protect ${pattern}: newly protected`);
  for (const pattern of inspection.patternsRemoved) lines.push(`  protect ${pattern}: no longer in yoke.conf`);
  const now = new Map(inspection.listed.map((file) => [file.path, file]));
  for (const entry of inspection.drift) {
    const before = entry.before && (entry.before.mode & 0o170000) !== SYMLINK_MODE ? (await readBlobFile(blobPath(paths.loopDir, entry.before.sha256)))?.toString('utf8') ?? null : null;
    const after = now.get(entry.path)?.content.toString('utf8') ?? null;
    const detail = entry.kind === 'mode' && entry.before && entry.after
      ? `mode ${entry.before.mode.toString(8)} → ${entry.after.mode.toString(8)}`
      : entry.kind === 'deleted' ? `deleted (${diffSummary(before, null)})`
      : entry.kind === 'added' ? `added (${diffSummary(null, after)})`
      : `modified (${diffSummary(before ?? '', after ?? '')})`;
    lines.push(`  ${entry.path}: ${detail}`);
  }
  return lines;
}
