// Reads `parallel N` and `--parallel N`: how many stories run at once (DESIGN §10).
import { parsePositiveInt } from './parse-number.js';
import { rejected, type ParsedValue } from './parsed-value.js';

/** The most stories a parallel run works at once. */
export const MAX_PARALLEL = 8;

/** A whole number from 1 to 8. */
export function parseParallel(text: string): ParsedValue<number> {
  const count = parsePositiveInt(text, '4');
  if (!count.ok) return count;
  return count.value > MAX_PARALLEL ? rejected(`\`${text}\` is more than ${MAX_PARALLEL}`, `use 1 to ${MAX_PARALLEL} stories at once, like 4`) : count;
}
