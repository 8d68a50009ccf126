// A tiny terminal emulator for tests: what a screen shows after raw output with \r, \n and erase-line.

/**
 * The lines a terminal would show for `raw`: printable text overwrites at the cursor, `\r` returns
 * to column 0, `\n` moves to a new line, `ESC[2K` erases the line; other escape sequences (colors)
 * are dropped. Enough to check that a status line and program output never share a line.
 */
export function screenLines(raw: string): string[] {
  const lines: string[][] = [[]];
  let column = 0;
  for (let index = 0; index < raw.length; index += 1) {
    const char = raw[index] as string;
    const line = lines[lines.length - 1] as string[];
    if (char === '\x1b') {
      // eslint-disable-next-line no-control-regex -- terminal escape sequences are the point
      const match = /^\x1b\[([0-9;]*)([A-Za-z])/.exec(raw.slice(index));
      if (!match) continue;
      if (match[2] === 'K' && match[1] === '2') line.length = 0;
      index += match[0].length - 1;
    } else if (char === '\r') {
      column = 0;
    } else if (char === '\n') {
      lines.push([]);
      column = 0;
    } else {
      line[column] = char;
      column += 1;
    }
  }
  return lines.map((line) => Array.from(line, (char) => char ?? ' ').join('').trimEnd());
}
