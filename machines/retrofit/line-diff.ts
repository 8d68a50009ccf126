// A one-line diff summary: how many lines a change adds and removes.

/** Lines added and removed between two texts (longest common subsequence; a count, not a patch). */
export function lineChanges(before: string, after: string): { added: number; removed: number } {
  const a = splitLines(before);
  const b = splitLines(after);
  if (a.length * b.length > 4_000_000) return { added: b.length, removed: a.length };
  let previous = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i += 1) {
    const current = new Array<number>(b.length + 1).fill(0);
    for (let j = 1; j <= b.length; j += 1) {
      current[j] = a[i - 1] === b[j - 1] ? (previous[j - 1] ?? 0) + 1 : Math.max(previous[j] ?? 0, current[j - 1] ?? 0);
    }
    previous = current;
  }
  const common = previous[b.length] ?? 0;
  return { added: b.length - common, removed: a.length - common };
}

function splitLines(text: string): string[] {
  if (text === '') return [];
  return (text.endsWith('\n') ? text.slice(0, -1) : text).split('\n');
}

/** "+3 −1 lines" for a change, "new, 12 lines" for a new file, "−12 lines" for a removed one. */
export function diffSummary(before: string | null, after: string | null): string {
  if (before === null && after !== null) return `new, ${splitLines(after).length} lines`;
  if (after === null) return `−${splitLines(before ?? '').length} lines`;
  const { added, removed } = lineChanges(before ?? '', after);
  return `+${added} −${removed} lines`;
}
