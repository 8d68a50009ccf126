// Removing the fill values a check knows (literal and read from the environment) from text it keeps.

/** What replaces a secret in kept text. */
export const REDACTED = '[redacted]';

/** Values shorter than this are not redacted: they would match everywhere (never use one as a secret). */
export const MIN_REDACTED_CHARS = 4;

/** Replaces every known value in text; `longest` says how far a value can reach across a cut. */
export interface Redactor {
  redact(text: string): string;
  longest: number;
}

/** A redactor for `values` (longest first, so a value containing another is replaced whole). */
export function createRedactor(values: Iterable<string>): Redactor {
  const secrets = [...new Set(values)].filter((value) => value.length >= MIN_REDACTED_CHARS).sort((a, b) => b.length - a.length);
  return {
    redact: (text) => secrets.reduce((kept, secret) => kept.split(secret).join(REDACTED), text),
    longest: secrets[0]?.length ?? 0,
  };
}
