// Renders `.loop/saga-log.md`: every finished chunk's notes under `## Chunk N` (spec 4.4, 4.5).

/** The whole log from the journaled notes of each finished chunk; append-only by construction. */
export function renderSagaLog(entries: ReadonlyArray<{ chunk: number; notes: string }>): string {
  const parts = ['# Saga log', '', 'The worker notes of every finished chunk, oldest first (written by yoke; do not edit).', ''];
  for (const entry of entries) parts.push(`## Chunk ${entry.chunk}`, '', entry.notes.trimEnd(), '');
  return `${parts.join('\n')}`;
}
