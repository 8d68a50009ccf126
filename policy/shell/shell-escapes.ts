// Undoes shell quoting inside literal text: backslashes (unquoted and in double quotes) and `$'…'`.

const ANSI_C: { readonly [char: string]: string } = { n: '\n', t: '\t', r: '\r', a: '\x07', b: '\b', e: '\x1b', E: '\x1b', f: '\f', v: '\v', '\\': '\\', "'": "'", '"': '"', '?': '?' };

/** The value of unquoted literal text: `\x` is `x`, a backslash-newline vanishes. */
export function unescapeUnquoted(raw: string): string {
  return raw.replace(/\\(\n|.)/gs, (_all, char: string) => (char === '\n' ? '' : char));
}

/** The value of literal text inside double quotes: only `\$`, `` \` ``, `\"`, `\\` and backslash-newline are escapes. */
export function unescapeDoubleQuoted(raw: string): string {
  return raw.replace(/\\([$`"\\\n])/g, (_all, char: string) => (char === '\n' ? '' : char));
}

/** The value of a `$'…'` string body: C escapes, `\xHH`, `\uHHHH`, `\UHHHHHHHH` and octal `\NNN`. */
export function decodeAnsiC(raw: string): string {
  return raw.replace(/\\(x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|[0-7]{1,3}|c.|.)/gs, (_all, esc: string) => {
    const head = esc[0] ?? '';
    if (head === 'x' || head === 'u' || head === 'U') return String.fromCodePoint(parseInt(esc.slice(1), 16));
    if (/^[0-7]+$/.test(esc)) return String.fromCodePoint(parseInt(esc, 8));
    if (head === 'c') return String.fromCodePoint((esc.codePointAt(1) ?? 64) & 31);
    return ANSI_C[esc] ?? `\\${esc}`;
  });
}
