// Renders `.loop/saga-log.md`: every finished chunk's notes under `## Chunk N` (spec 4.4, 4.5).

/**
 * The whole log: what the file held when the saga started (if anything), then the journaled notes
 * of each finished chunk. Append-only by construction.
 */
export function renderSagaLog(entries: ReadonlyArray<{ chunk: number; notes: string }>, before: string | null = null): string {
  const parts = before !== null && before.trim() !== ''
    ? [before.trimEnd(), '']
    : ['# Saga log', '', 'The worker notes of every finished chunk, oldest first (written by yoke; do not edit).', ''];
  for (const entry of entries) parts.push(`## Chunk ${entry.chunk}`, '', entry.notes.trimEnd(), '');
  return `${parts.join('\n')}`;
}
