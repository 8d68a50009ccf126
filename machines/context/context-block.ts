// The "Project context" block every agent prompt opens with (DESIGN §9), computed from the files' text (pure).
import { CONTEXT_DIR, CONTEXT_FILES, type ContextFileName } from './context-files.js';

/** One context file as read: null when it does not exist. */
export interface ContextFileText {
  readonly name: ContextFileName;
  readonly text: string | null;
}

/** What the block carries of one file: how many characters of its text (0 = nothing). */
export interface ContextShare {
  readonly name: ContextFileName;
  /** characters of the file's text in the block (its tail), 0 when it is missing, empty or left out */
  readonly injected: number;
}

/** The block and what each file contributed to it. */
export interface ContextBlock {
  /** '' when no file has any text; otherwise it ends with a `---` line and a blank line, ahead of the task */
  readonly block: string;
  readonly shares: readonly ContextShare[];
}

const TITLE = '# Project context\n\n';
const CLOSING = '---\n\n';
/** Opens a file's text when its beginning was cut to fit the budget. */
export const CUT_MARK = '[… earlier lines left out to fit the context budget]\n';

const heading = (name: string): string => `## ${CONTEXT_DIR}/${name}\n\n`;
const section = (name: string, body: string): string => `${heading(name)}${body}\n\n`;

/**
 * The block for `files` within `budget` characters in total, title, headings and closing line
 * included. Each file with text gets an equal share of what the frame leaves; a share one file
 * does not use passes on to the others. A file longer than its share keeps its tail (its last
 * lines: a ledger's newest entries), marked as cut.
 * @example contextBlock([{ name: 'PROJECT.md', text: 'Ship it.' }], 8000).block
 * // '# Project context\n\n## .yoke/context/PROJECT.md\n\nShip it.\n\n---\n\n'
 */
export function contextBlock(files: readonly ContextFileText[], budget: number): ContextBlock {
  const texts = CONTEXT_FILES.map((name) => ({ name, text: normalize(files.find((file) => file.name === name)?.text ?? null) }));
  const present = texts.filter((file) => file.text.length > 0);
  const frame = TITLE.length + CLOSING.length + present.reduce((sum, file) => sum + section(file.name, '').length, 0);
  const sizes = shareOut(present.map((file) => file.text.length), budget - frame);
  const bodies = new Map(present.map((file, i) => [file.name, tail(file.text, sizes[i] ?? 0)]));
  const shares = texts.map(({ name }) => ({ name, injected: bodies.get(name)?.length ?? 0 }));
  const kept = present.filter((file) => (bodies.get(file.name) ?? '').length > 0);
  if (kept.length === 0) return { block: '', shares };
  return { block: `${TITLE}${kept.map((file) => section(file.name, bodies.get(file.name) ?? '')).join('')}${CLOSING}`, shares };
}

/** The prompt with the block ahead of the task; the prompt itself when there is no block. */
export function withContextBlock(block: string, prompt: string): string {
  return block === '' ? prompt : `${block}${prompt}`;
}

/** Text without a byte-order mark, Windows line ends or trailing blank space: what a file says. */
function normalize(text: string | null): string {
  return (text ?? '').replace(/^\uFEFF/, '').replace(/\r\n/g, '\n').trimEnd();
}

/**
 * Split `total` characters between files of `lengths`: equal shares, smallest file first, each
 * taking at most its length and leaving the rest to the files after it (water-filling).
 */
export function shareOut(lengths: readonly number[], total: number): number[] {
  const order = lengths.map((length, index) => ({ length, index })).sort((a, b) => a.length - b.length || a.index - b.index);
  const sizes = lengths.map(() => 0);
  let left = Math.max(0, total);
  order.forEach(({ length, index }, position) => {
    const share = Math.floor(left / (order.length - position));
    const size = Math.min(length, share);
    sizes[index] = size;
    left -= size;
  });
  return sizes;
}

/** The last characters of `text` in at most `size`, from a line start, after the cut mark; the whole text when it fits; '' when nothing fits. */
export function tail(text: string, size: number): string {
  if (text.length <= size) return text;
  const room = size - CUT_MARK.length;
  if (room <= 0) return '';
  let kept = text.slice(text.length - room);
  // Start on a whole line when the cut fell inside one (and a later line exists).
  const newline = kept.indexOf('\n');
  if (text[text.length - room - 1] !== '\n' && newline >= 0 && newline + 1 < kept.length) kept = kept.slice(newline + 1);
  // Never start on the second half of a surrogate pair.
  if (/^[\uDC00-\uDFFF]/.test(kept)) kept = kept.slice(1);
  return kept.length === 0 ? '' : `${CUT_MARK}${kept}`;
}
