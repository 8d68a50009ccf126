// Reads yoke.conf durations (`90s`, `20m`, `2h`, `1h30m`, or `0` for off) into milliseconds.
import { parsed, rejected, type ParsedValue } from './parsed-value.js';

const DURATION = /^(?:([0-9]+)h)?(?:([0-9]+)m)?(?:([0-9]+)s)?$/;
const HINT = 'use a duration like 90s, 20m or 2h, or 0 to turn it off';

/**
 * The longest timeout yoke.conf accepts: 596h (24 days 20 hours). Node's timers hold at most
 * 2^31 - 1 ms (about 596h31m); a longer one fires after 1 ms, which would kill every agent or
 * guard at once. A round number of hours just below that limit is easy to remember.
 */
export const MAX_TIMEOUT_MS = 596 * 3_600_000;

/** The same maximum as yoke.conf writes it. */
export const MAX_TIMEOUT_TEXT = '596h';

/** Milliseconds for a duration token; `0` (or `0s`, `0m`, `0h`) means off and reads as 0. */
export function parseDuration(text: string): ParsedValue<number> {
  if (/^[0-9]+$/.test(text) && Number(text) !== 0) {
    return rejected(`\`${text}\` has no unit`, `add a unit, like ${text}s, ${text}m or ${text}h`);
  }
  if (/^0+$/.test(text)) return parsed(0);
  const match = DURATION.exec(text);
  if (match === null || text === '') return rejected(`\`${text}\` is not a duration`, HINT);
  const [, hours = '0', minutes = '0', seconds = '0'] = match;
  const ms = (Number(hours) * 3600 + Number(minutes) * 60 + Number(seconds)) * 1000;
  if (!Number.isSafeInteger(ms)) return rejected(`\`${text}\` is too long`, HINT);
  return parsed(ms);
}

/** A timeout (`idle-timeout`, `guard-timeout`, `agent-timeout`): a duration of at most {@link MAX_TIMEOUT_TEXT}, or 0 for off. */
export function parseTimeout(text: string): ParsedValue<number> {
  const result = parseDuration(text);
  if (!result.ok || result.value <= MAX_TIMEOUT_MS) return result;
  return rejected(
    `\`${text}\` is longer than the maximum timeout of ${MAX_TIMEOUT_TEXT} (24 days 20 hours)`,
    `use ${MAX_TIMEOUT_TEXT} or less, or 0 to turn the timeout off`,
  );
}
