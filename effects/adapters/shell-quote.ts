// Quoting one word for `sh -c`, so a configured value can never become shell syntax.

/** `word` as a single POSIX shell word: bare when it is plainly safe, else in single quotes. */
export function shellQuote(word: string): string {
  if (/^[A-Za-z0-9@%_+=:,./-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}
