// Reading fields of untrusted CLI JSON without trusting their types.
import { isRecord } from './json-line-splitter.js';

/** `value[key]` when `value` is an object and the field is one too, else null. */
export function objectField(value: unknown, key: string): Record<string, unknown> | null {
  if (!isRecord(value)) return null;
  const field = value[key];
  return isRecord(field) ? field : null;
}

/** A token count or cost: a finite number ≥ 0, else null (unknown, never zero). */
export function countField(value: unknown, key: string): number | null {
  if (!isRecord(value)) return null;
  const field = value[key];
  return typeof field === 'number' && Number.isFinite(field) && field >= 0 ? field : null;
}

/** A non-empty string field, else null. */
export function stringField(value: unknown, key: string): string | null {
  if (!isRecord(value)) return null;
  const field = value[key];
  return typeof field === 'string' && field !== '' ? field : null;
}
