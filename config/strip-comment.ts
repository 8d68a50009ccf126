// Removes a trailing `#` comment from one yoke.conf line, following the shell's own rule.
//
// `#` starts a comment only at the start of a word (line start or after a space or tab) and
// outside quotes, exactly as `sh` reads it. So `curl http://x#y`, `echo "a # b"` and `echo $#`
// keep their `#`, and cutting `npm test # fast` to `npm test` never changes what `sh -c` runs.

/** The part of `raw` before its comment (the whole line when it has none). */
export function stripComment(raw: string): string {
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < raw.length; i += 1) {
    const ch = raw[i];
    if (quote === "'") {
      if (ch === "'") quote = null;
    } else if (ch === '\\') {
      i += 1;
    } else if (quote === '"') {
      if (ch === '"') quote = null;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
    } else if (ch === '#' && (i === 0 || raw[i - 1] === ' ' || raw[i - 1] === '\t')) {
      return raw.slice(0, i);
    }
  }
  return raw;
}
