// Removing what a check must not keep from the text it keeps: the fill values its flows know
// (literal and read from the environment), and the values of secret environment variables.
import { redactSecrets, type SecretValue } from '../process/redact-secrets.js';

/** What replaces a fill value in kept text. */
export const REDACTED = '[redacted]';

/** Fill values shorter than this are not redacted: they would match everywhere (never use one as a secret). */
export const MIN_REDACTED_CHARS = 4;

/** Replaces every known value in text; `longest` says how far a value can reach across a cut. */
export interface Redactor {
  redact(text: string): string;
  longest: number;
}

/**
 * A redactor for the fill `values` (longest first, so a value containing another is replaced
 * whole, by {@link REDACTED}), then for `secrets` (secret environment values, each replaced by
 * `[redacted $NAME]` as in every other journaled excerpt: effects/process/redact-secrets.ts).
 * @example createRedactor(['hunter22'], [{ name: 'SECRET_TOKEN', value: 'abc123' }]).redact('hunter22 abc123') // '[redacted] [redacted $SECRET_TOKEN]'
 */
export function createRedactor(values: Iterable<string>, secrets: readonly SecretValue[] = []): Redactor {
  const fills = [...new Set(values)].filter((value) => value.length >= MIN_REDACTED_CHARS).sort((a, b) => b.length - a.length);
  return {
    redact: (text) => redactSecrets(fills.reduce((kept, fill) => kept.split(fill).join(REDACTED), text), secrets),
    longest: Math.max(fills[0]?.length ?? 0, secrets[0]?.value.length ?? 0),
  };
}
