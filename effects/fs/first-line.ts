// The first line of a status file (notes.md, verdict.md, saga-notes.md) as the machines read it.

/**
 * The text before the first `\n`, without a leading byte-order mark and without the spaces, tabs
 * and CR at its end (only those: other Unicode spaces stay, so `STATUS: DONE` followed by a
 * no-break space is not DONE); null when that leaves nothing.
 * @example firstLineOf('\uFEFFSTATUS: DONE \r\nnotes\n') // 'STATUS: DONE'
 */
export function firstLineOf(text: string): string | null {
  const line = (text.replace(/^\uFEFF/, '').split('\n', 1)[0] ?? '').replace(/[ \t\r]+$/, '');
  return line === '' ? null : line;
}
