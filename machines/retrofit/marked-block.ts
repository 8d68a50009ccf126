// The managed block yoke keeps inside a user's text file: everything between its begin and end
// marker lines is yoke's, everything outside is never changed.
//
//   <!-- yoke:begin canon: managed by yoke retrofit, edit outside this block -->   (markdown)
//   # yoke:begin canon: managed by yoke retrofit, edit outside this block          (gitignore, TOML)
//   …
//   <!-- yoke:end canon -->  /  # yoke:end canon
//
// In a file with CRLF line endings the block is written with CRLF too.
import { lineEnding } from './line-ending.js';

/** How the marker lines are written in a file. */
export type MarkerStyle = 'markdown' | 'hash';

/** The block's id in every file (one managed block per file). */
export const BLOCK_ID = 'canon';

const NOTE = 'managed by yoke retrofit, edit outside this block';

/** The begin and end lines of a block. */
export function markerLines(style: MarkerStyle, id = BLOCK_ID): { begin: string; end: string } {
  switch (style) {
    case 'markdown':
      return { begin: `<!-- yoke:begin ${id}: ${NOTE} -->`, end: `<!-- yoke:end ${id} -->` };
    case 'hash':
      return { begin: `# yoke:begin ${id}: ${NOTE}`, end: `# yoke:end ${id}` };
  }
}

/** The block text for `body` (markers included, ending with a newline). */
export function renderBlock(style: MarkerStyle, body: string, id = BLOCK_ID): string {
  const { begin, end } = markerLines(style, id);
  const inner = body.endsWith('\n') ? body : `${body}\n`;
  return `${begin}\n${inner}${end}\n`;
}

/** Where a block is in a text: absent, present (byte offsets of the whole block), or broken. */
export type FoundBlock =
  | { state: 'absent' }
  | { state: 'present'; start: number; end: number; text: string }
  | { state: 'broken'; line: number; reason: string };

const beginPattern = (id: string) => new RegExp(`^(?:<!--|#) yoke:begin ${id}\\b`);
const endPattern = (id: string) => new RegExp(`^(?:<!--|#) yoke:end ${id}\\b`);

/** Find the block `id` in `text`. Two begins, a begin without an end, or an end alone are broken. */
export function findBlock(text: string, id = BLOCK_ID): FoundBlock {
  const lines = text.split('\n');
  let offset = 0;
  let begin: { line: number; offset: number } | null = null;
  let found: { start: number; end: number } | null = null;
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index] ?? '';
    const lineEnd = offset + line.length + (index < lines.length - 1 ? 1 : 0);
    if (beginPattern(id).test(line)) {
      if (begin !== null || found !== null) return { state: 'broken', line: index + 1, reason: `a second \`yoke:begin ${id}\` marker` };
      begin = { line: index + 1, offset };
    } else if (endPattern(id).test(line)) {
      if (begin === null) return { state: 'broken', line: index + 1, reason: `a \`yoke:end ${id}\` marker without a begin marker above it` };
      found = { start: begin.offset, end: lineEnd };
      begin = null;
    }
    offset = lineEnd;
  }
  if (begin !== null) return { state: 'broken', line: begin.line, reason: `the \`yoke:begin ${id}\` marker is never closed by \`yoke:end ${id}\`` };
  if (found === null) return { state: 'absent' };
  return { state: 'present', start: found.start, end: found.end, text: text.slice(found.start, found.end) };
}

/** `text` with `block` appended after a blank line, in the text's line ending (the user's text stays byte for byte). */
export function appendBlock(text: string, block: string): string {
  if (text === '') return block;
  const eol = lineEnding(text);
  const separator = text.endsWith(`${eol}${eol}`) ? '' : text.endsWith(eol) ? eol : `${eol}${eol}`;
  return `${text}${separator}${block}`;
}

/** `text` with the found block replaced by `block` (a block at the end without a newline gets one). */
export function replaceBlock(text: string, found: Extract<FoundBlock, { state: 'present' }>, block: string): string {
  return `${text.slice(0, found.start)}${block}${text.slice(found.end)}`;
}

/** `text` without the found block and the blank line `appendBlock` put before it. */
export function removeBlock(text: string, found: Extract<FoundBlock, { state: 'present' }>): string {
  let before = text.slice(0, found.start);
  const after = text.slice(found.end);
  const eol = lineEnding(before);
  if (after === '' && before.endsWith(`${eol}${eol}`)) before = before.slice(0, -eol.length);
  return `${before}${after}`;
}
