// The DECISIONS.md entry yoke appends after an accepted story, judged chunk, accepted goal or finished run (pure).

/** What one decision entry is made of: the journaled clock, the unit's id and title, the passing attempt's notes. */
export interface DecisionInput {
  /** epoch ms from a journaled `clock.read` (never the ambient clock) */
  readonly now: number;
  /** `S-1` for a story, `chunk-3`, `goal`, or a run id's first 8 characters */
  readonly id: string;
  readonly title: string;
  /** the worker's notes of the passing attempt (null when there are none) */
  readonly notes: string | null;
}

/** The first `Decision:` line of the notes without its prefix, else the title. */
export function decisionSummary(notes: string | null, title: string): string {
  for (const line of (notes ?? '').split(/\r?\n/)) {
    const match = /^\s*Decision:\s*(.*\S)\s*$/.exec(line);
    if (match?.[1] !== undefined) return match[1];
  }
  return title;
}

/**
 * The entry's text: `## <YYYY-MM-DD> — <id>: <title>`, then the one-line summary, then a blank line.
 * @example decisionEntry({ now: 0, id: 'S-1', title: 'Login', notes: 'Decision: JWT in cookies' })
 * // '## 1970-01-01 — S-1: Login\nJWT in cookies\n'
 */
export function decisionEntry(input: DecisionInput): string {
  const date = utcDate(input.now);
  return `## ${date} — ${input.id}: ${input.title}\n${decisionSummary(input.notes, input.title)}\n`;
}

/** The ledger after appending an entry: existing text kept byte for byte, separated by one blank line. */
export function appendDecision(ledger: string | null, entry: string): string {
  if (ledger === null || ledger.length === 0) return entry;
  const base = ledger.endsWith('\n') ? ledger : `${ledger}\n`;
  return `${base}\n${entry}`;
}

/** `YYYY-MM-DD` of an epoch-ms instant in UTC, computed without a Date (civil-from-days, H. Hinnant). */
export function utcDate(epochMs: number): string {
  const z = Math.floor(epochMs / 86_400_000) + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}
