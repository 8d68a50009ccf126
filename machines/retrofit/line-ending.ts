// The line ending a user's text file uses, so what yoke adds to it matches (a block appended with
// LF into a CRLF file would leave the file mixed).

/** A text's line ending: CRLF when most of its line breaks are CRLF, else LF (also for a text with none). */
export type LineEnding = '\n' | '\r\n';

/** The line ending `text` mostly uses. */
export function lineEnding(text: string | null): LineEnding {
  if (text === null) return '\n';
  const crlf = text.split('\r\n').length - 1;
  const lf = text.split('\n').length - 1 - crlf;
  return crlf > lf ? '\r\n' : '\n';
}

/** `text` (written with LF) with every line break as `eol`. */
export function withLineEnding(text: string, eol: LineEnding): string {
  return eol === '\n' ? text : text.replace(/\r?\n/g, eol);
}
