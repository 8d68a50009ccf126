// Reads the numeric values of yoke.conf: counts, token budgets and decimal amounts.
//
// Only plain decimal notation is accepted: no sign, no exponent (`1e3`), no hex (`0x10`), no
// leading zeros, no trailing garbage. `Number()` would accept all of those, so each form is
// matched by a regular expression first.
import { parsed, rejected, type ParsedValue } from './parsed-value.js';

const WHOLE = /^[1-9][0-9]*$/;
const DECIMAL = /^(0|[1-9][0-9]*)(\.[0-9]+)?$/;
const SCALED = /^(0|[1-9][0-9]*)(\.[0-9]+)?([kKM])$/;
const SCALE: Record<string, number> = { k: 1_000, K: 1_000, M: 1_000_000 };

function wholeHint(text: string, example: string): string {
  if (/^0+$/.test(text)) return `use 1 or more, like ${example}`;
  if (text.startsWith('-')) return `negative values are not allowed; use a whole number like ${example}`;
  return `use a whole number of 1 or more, like ${example}`;
}

function tooLarge<T>(text: string): ParsedValue<T> {
  return rejected(`\`${text}\` is too large`, `use a number below ${Number.MAX_SAFE_INTEGER}`);
}

/** A whole number ≥ 1 (`50`); `example` shows the user a sensible value in the hint. */
export function parsePositiveInt(text: string, example = '50'): ParsedValue<number> {
  if (!WHOLE.test(text)) return rejected(`\`${text}\` is not a whole number of 1 or more`, wholeHint(text, example));
  const value = Number(text);
  return Number.isSafeInteger(value) ? parsed(value) : tooLarge(text);
}

/** A token count ≥ 1, optionally scaled: `500000`, `500k`, `2M`, `1.5M` (must come out whole). */
export function parseTokenCount(text: string): ParsedValue<number> {
  const hint = 'use a whole number of tokens like 500000, 500k or 2M';
  const scaled = SCALED.exec(text);
  if (scaled !== null) {
    const exact = Number(`${scaled[1]}${scaled[2] ?? ''}`) * (SCALE[scaled[3] ?? ''] ?? 1);
    const value = Math.round(exact);
    if (value < 1 || Math.abs(value - exact) > 1e-6) return rejected(`\`${text}\` is not a whole number of tokens of 1 or more`, hint);
    return Number.isSafeInteger(value) ? parsed(value) : tooLarge(text);
  }
  if (!WHOLE.test(text)) return rejected(`\`${text}\` is not a whole number of tokens of 1 or more`, hint);
  const value = Number(text);
  return Number.isSafeInteger(value) ? parsed(value) : tooLarge(text);
}

/** A decimal number ≥ 0 (`0`, `1.25`, `10`); `unit` names what it counts, for the message. */
export function parseNonNegativeDecimal(text: string, unit: string, example: string): ParsedValue<number> {
  const hint = `use a number of 0 or more like ${example}, without sign, unit or exponent`;
  if (!DECIMAL.test(text)) return rejected(`\`${text}\` is not a valid amount of ${unit}`, hint);
  const value = Number(text);
  return Number.isFinite(value) && value <= Number.MAX_SAFE_INTEGER ? parsed(value) : tooLarge(text);
}

/** A decimal number > 0 (`2.50`, `90`, `0.5`); `unit` names what it counts, for the message. */
export function parsePositiveDecimal(text: string, unit: string, example: string): ParsedValue<number> {
  const hint = `use a number greater than 0 like ${example}, without sign, unit or exponent`;
  if (!DECIMAL.test(text)) return rejected(`\`${text}\` is not a valid amount of ${unit}`, hint);
  const value = Number(text);
  if (value <= 0) return rejected(`\`${text}\` ${unit} is not greater than 0`, hint);
  return Number.isFinite(value) && value <= Number.MAX_SAFE_INTEGER ? parsed(value) : tooLarge(text);
}
