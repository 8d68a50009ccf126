// The digests of configuration a check report records: the check's own inputs, and the whole
// effective yoke.conf.
import { createHash } from 'node:crypto';
import type { Config } from '../../config/types.js';
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
 * label, the protection digest, the `redact` names and the whole config's digest are left out (the
 * same check under another label has the same digest); environment values are never part of it.
 */
export function checkConfigDigest(params: AcceptanceCheckParams, flows: readonly { journey: string; sha256: string }[]): string {
  // the protection digest is reported on its own (report.protection), not folded in here; which
  // values are redacted from the output changes nothing the check proves
  const { label: _label, protection: _protection, redact: _redact, configDigest: _config, ...effective } = params;
  return createHash('sha256').update(canonicalJson({ ...effective, flows })).digest('hex');
}

/** The config without where each directive was written (`line`): moving a line or adding a comment changes nothing it says. */
function withoutPositions(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutPositions);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value as Record<string, unknown>).filter(([key]) => key !== 'line').map(([key, item]) => [key, withoutPositions(item)]));
}

/**
 * SHA-256 (hex) of the whole effective configuration: every directive of yoke.conf as parsed, with
 * yoke's defaults filled in, and without line positions, so two configs that say the same thing
 * have the same digest. Only the digest is written, never a value of the config, and no
 * environment value is part of it (`store` is parsed without credentials).
 * @example effectiveConfigDigest(loadConfig(paths)) // '3f1c…' (64 hex digits)
 */
export function effectiveConfigDigest(config: Config): string {
  return createHash('sha256').update(canonicalJson(withoutPositions(config))).digest('hex');
}
