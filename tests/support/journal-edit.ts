// Damaging a journal on purpose: rewrite one line (as text or as a parsed record), add a torn tail,
// or rewrite every record and re-chain them (a journal from another yoke version).
import { createHash } from 'node:crypto';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';

/** The journal's lines without their newlines (a trailing newline yields no empty last entry). */
export function journalLines(path: string): string[] {
  const text = readFileSync(path, 'utf8');
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** Replace line `lineNumber` (1-based) with `edit(oldLine)`, keeping every other byte. */
export function rewriteLine(path: string, lineNumber: number, edit: (line: string) => string): void {
  const text = readFileSync(path, 'utf8');
  const lines = text.split('\n');
  const old = lines[lineNumber - 1];
  if (old === undefined || old === '') throw new Error(`${path} has no line ${lineNumber}`);
  lines[lineNumber - 1] = edit(old);
  writeFileSync(path, lines.join('\n'));
}

/** Parse line `lineNumber` as JSON, let `mutate` change it, and write it back as one JSON line. */
export function editRecord(path: string, lineNumber: number, mutate: (record: Record<string, unknown>) => void): void {
  rewriteLine(path, lineNumber, (line) => {
    const record = JSON.parse(line) as Record<string, unknown>;
    mutate(record);
    return JSON.stringify(record);
  });
}

/** Append the first half of a copy of line `copyOf` without a newline: what a crash mid-write leaves. */
export function appendTornLine(path: string, copyOf: number): number {
  const line = journalLines(path)[copyOf - 1];
  if (line === undefined) throw new Error(`${path} has no line ${copyOf}`);
  const torn = line.slice(0, Math.floor(line.length / 2));
  appendFileSync(path, torn);
  return Buffer.byteLength(torn);
}

/**
 * Rewrite every record through `mutate` and recompute the hash chain, as a journal written by
 * another yoke version would look: valid, chained, but with other contents.
 */
export function rewriteJournal(path: string, mutate: (record: Record<string, unknown>) => void): void {
  let prev = '0'.repeat(64);
  const lines = journalLines(path).map((line) => {
    const record = JSON.parse(line) as Record<string, unknown>;
    mutate(record);
    record.prev = prev;
    const text = JSON.stringify(record);
    prev = createHash('sha256').update(text).digest('hex');
    return text;
  });
  writeFileSync(path, `${lines.join('\n')}\n`);
}
