// Splits yoke.conf text into directive lines and whitespace-separated tokens with their columns.
import { stripComment } from './strip-comment.js';

/** One whitespace-separated word of a line; `column` is 1-based and counts characters. */
export interface Token {
  text: string;
  column: number;
}

/** A non-blank, comment-stripped line: its 1-based number, its text and its tokens (at least one). */
export interface ConfigLine {
  number: number;
  text: string;
  tokens: [Token, ...Token[]];
}

const TOKEN = /[^ \t]+/g;

/** The directive lines of `text`; blank and comment-only lines are dropped, CRLF and a BOM tolerated. */
export function splitConfigLines(text: string): ConfigLine[] {
  const lines: ConfigLine[] = [];
  const rawLines = text.replace(/^\uFEFF/, '').split('\n');
  rawLines.forEach((raw, index) => {
    const lineText = stripComment(raw.endsWith('\r') ? raw.slice(0, -1) : raw).trimEnd();
    const tokens = [...lineText.matchAll(TOKEN)].map((m) => ({ text: m[0], column: m.index + 1 }));
    const [first, ...rest] = tokens;
    if (first !== undefined) lines.push({ number: index + 1, text: lineText, tokens: [first, ...rest] });
  });
  return lines;
}

/** The line's text from token `index` to its end, verbatim (trimmed); '' when there is no such token. */
export function restOfLine(line: ConfigLine, index: number): string {
  const token = line.tokens[index];
  return token === undefined ? '' : line.text.slice(token.column - 1).trim();
}

/** The column just past the last character of the line (where a missing argument would go). */
export function endColumn(line: ConfigLine): number {
  return line.text.length + 1;
}
