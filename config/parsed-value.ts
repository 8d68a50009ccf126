// The result of reading one value token: the value, or what is wrong with it and what to do.

/** A value read from a token, or a one-sentence problem with a hint for the user. */
export type ParsedValue<T> = { ok: true; value: T } | { ok: false; message: string; hint: string };

/** A successfully read value. */
export function parsed<T>(value: T): ParsedValue<T> {
  return { ok: true, value };
}

/** A value that could not be read: `message` says what is wrong, `hint` what to do. */
export function rejected<T>(message: string, hint: string): ParsedValue<T> {
  return { ok: false, message, hint };
}
