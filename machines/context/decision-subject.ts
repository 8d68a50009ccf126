// Which unit a DECISIONS.md entry names, and its title, from journaled facts (DESIGN §9; pure).

/** What the entry is about: a saga chunk, the goal, or a loop/brute run. */
export type DecisionUnit = { kind: 'chunk'; chunk: number } | { kind: 'goal' } | { kind: 'run'; run: string };

/** The entry's id: `chunk-N`, `goal`, or the run id's first 8 characters. */
export function decisionId(unit: DecisionUnit): string {
  switch (unit.kind) {
    case 'chunk':
      return `chunk-${unit.chunk}`;
    case 'goal':
      return 'goal';
    case 'run':
      return unit.run.slice(0, 8);
  }
}

/**
 * The entry's title from the plan's text: a saga chunk's is the first line of its sub-plan, the
 * others' the first markdown heading of `goal.md` / `plan.md` (else its first line); heading
 * marks are dropped. `fallback` when the plan has no line with text.
 */
export function decisionTitle(unit: DecisionUnit, plan: string | null, fallback: string): string {
  const lines = (plan ?? '').replace(/^\uFEFF/, '').split(/\r?\n/).map((line) => line.trim()).filter((line) => line.length > 0);
  const first = unit.kind === 'chunk' ? lines[0] : (lines.find((line) => /^#{1,6}\s/.test(line)) ?? lines[0]);
  const title = (first ?? '').replace(/^#{1,6}\s+/, '').replace(/\s+#+$/, '').trim();
  return title.length > 0 ? title : fallback;
}
