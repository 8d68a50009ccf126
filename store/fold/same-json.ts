// Equality of two values as JSON, without serializing them.

/**
 * Are `a` and `b` the same JSON value (object keys in any order)? Agrees with comparing
 * `canonical(a) === canonical(b)`: object keys whose value is `undefined` or a function are absent,
 * array slots holding them are `null`, non-finite numbers are `null`. Anything unusual (a `toJSON`
 * method, a symbol) falls back to comparing the canonical text.
 *
 * @example sameJson({ a: 1, b: [2] }, { b: [2], a: 1 }) // true
 */
export function sameJson(a: unknown, b: unknown, fallback: (value: unknown) => string): boolean {
  if (a === b) return true;
  if (typeof a === 'object' && typeof b === 'object' && a !== null && b !== null) {
    if (hasToJson(a) || hasToJson(b)) return fallback(a) === fallback(b);
    const arrayA = Array.isArray(a);
    if (arrayA !== Array.isArray(b)) return false;
    if (arrayA) {
      const left = a as unknown[];
      const right = b as unknown[];
      if (left.length !== right.length) return false;
      for (let index = 0; index < left.length; index += 1) {
        if (!sameJson(slot(left[index]), slot(right[index]), fallback)) return false;
      }
      return true;
    }
    const left = a as Record<string, unknown>;
    const right = b as Record<string, unknown>;
    let count = 0;
    for (const key of Object.keys(left)) {
      const value = left[key];
      if (absent(value)) continue;
      count += 1;
      if (!Object.prototype.hasOwnProperty.call(right, key)) return false;
      if (!sameJson(value, right[key], fallback)) return false;
    }
    for (const key of Object.keys(right)) if (!absent(right[key])) count -= 1;
    return count === 0;
  }
  if (typeof a === 'number' && typeof b === 'number') return !Number.isFinite(a) && !Number.isFinite(b);
  if (typeof a !== 'object' && typeof b !== 'object' && typeof a !== typeof b && typeof a !== 'undefined' && typeof b !== 'undefined') return false;
  // null against a non-finite number, leaves that serialize to nothing, anything unusual.
  return fallback(a) === fallback(b);
}

/** A key with this value is left out of JSON. */
function absent(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

/** What an array slot holding `value` serializes as. */
function slot(value: unknown): unknown {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol' ? null : value;
}

function hasToJson(value: object): boolean {
  return typeof (value as { toJSON?: unknown }).toJSON === 'function';
}
