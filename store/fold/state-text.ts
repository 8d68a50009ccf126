// A machine state value as text: `checking`, `chunk.working`, `a.x,b.y` for parallel regions.

/** Render an XState state value (string or nested object) as dotted text. */
export function stateText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object') {
    return Object.entries(value as Record<string, unknown>).map(([key, inner]) => `${key}.${stateText(inner)}`).join(',');
  }
  return String(value);
}
