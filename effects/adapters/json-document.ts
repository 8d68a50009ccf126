// Finding a pretty-printed JSON object at the end of a CLI's output (gemini's json mode and its errors).
import { parseObject } from './json-line-splitter.js';

/**
 * The last JSON object in `text` that runs to its end: the whole text when it is one, else the
 * object starting at the last line that is exactly `{` (what JSON.stringify(…, null, 2) writes
 * after other output such as a stack trace). Null when there is none.
 */
export function lastJsonDocument(text: string): Record<string, unknown> | null {
  const whole = parseObject(text);
  if (whole !== null) return whole;
  const lines = text.split('\n');
  for (let i = lines.length - 1; i >= 0; i -= 1) {
    if (lines[i]?.trimEnd() !== '{') continue;
    const found = parseObject(lines.slice(i).join('\n'));
    if (found !== null) return found;
  }
  return null;
}
