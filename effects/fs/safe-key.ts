// Turning an effect key (`<run>/<seq>/<index>`) into a file-name-safe word.

/** The key with every character outside `[A-Za-z0-9._-]` replaced by `-`, e.g. `01J…/12/0` → `01J…-12-0`. */
export function safeKey(key: string): string {
  return key.replace(/[^A-Za-z0-9._-]/g, '-');
}
