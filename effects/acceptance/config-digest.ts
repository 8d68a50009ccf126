// The digest of a check's effective configuration, as the report records it.
import { createHash } from 'node:crypto';
import type { AcceptanceCheckParams } from '../../machines/acceptance/acceptance-check.js';

/** JSON with object keys sorted, so equal values always give equal text. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, item]) => item !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * SHA-256 (hex) of everything that decides what the check proves: the criteria with their commands
 * and timeouts, the artifacts and their criteria, the base URL, and each flow file's SHA-256. The
 * label, the protection digest and the `redact` names are left out (the same check under another
 * label has the same digest); environment values are never part of it.
 */
export function checkConfigDigest(params: AcceptanceCheckParams, flows: readonly { journey: string; sha256: string }[]): string {
  // the protection digest is reported on its own (report.protection), not folded in here; which
  // values are redacted from the output changes nothing the check proves
  const { label: _label, protection: _protection, redact: _redact, ...effective } = params;
  return createHash('sha256').update(canonicalJson({ ...effective, flows })).digest('hex');
}
