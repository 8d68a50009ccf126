// How stash entries and stash outcomes read on the terminal and in --json.
import { stashCommandOf } from '../store/stash/stash-entry.js';
import type { IndexEntry } from '../store/stash/stash-index.js';
import type { SettleReport } from '../store/stash/stash-recovery.js';

/** The id as shown: its first 12 hex digits (any unambiguous prefix works with checkout). */
export function shortId(id: string): string {
  return id.slice(0, 12);
}

/** 1234567 → "1.2 MB". */
export function humanBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  const units = ['kB', 'MB', 'GB', 'TB'];
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${value.toFixed(1)} ${units[unit] ?? 'TB'}`;
}

/** "a1b2c3d4e5f6 (loop, 4 files, 2.1 kB)". */
export function entryLabel(entry: IndexEntry): string {
  return `${shortId(entry.id)} (${entry.mode}, ${entry.files} file${entry.files === 1 ? '' : 's'}, ${humanBytes(entry.bytes)})`;
}

/** An entry for `--json` output: everything but the manifest. */
export function entryJson(entry: IndexEntry): Record<string, unknown> {
  return {
    id: entry.id,
    tree: entry.tree,
    time: entry.time,
    mode: entry.mode,
    message: entry.message,
    via: entry.via,
    files: entry.files,
    bytes: entry.bytes,
    entries: entry.entries.length,
    seq: entry.seq,
    popped: entry.popped,
    restores: entry.restores,
  };
}

/** The warning lines telling the user what settling an interrupted operation did. */
export function settleLines(report: SettleReport): string[] {
  const command = stashCommandOf(report.op);
  if (report.outcome === 'rolled-back') return [`an interrupted \`${command}\` had changed nothing yet; it was rolled back.`];
  const did = [report.pushed ? `stashed ${shortId(report.pushed)}` : null, report.restored ? `restored ${shortId(report.restored)}` : null].filter(Boolean).join(', ');
  const lines = [`finished an interrupted \`${command}\`${did ? ` (${did})` : ''}.`];
  if (report.kept.length > 0) lines.push(`left in .loop/ because they changed after the interruption (the stashed versions are safe): ${report.kept.join(', ')}`);
  if (report.missing.length > 0) lines.push(`these stashed files were deleted after the interruption and cannot be restored: ${report.missing.join(', ')}`);
  if (report.conflicts.length > 0) lines.push(`not restored because .loop/ has something else by that name now: ${report.conflicts.join(', ')}`);
  return lines;
}
