// How many tool calls the gate ruled on, by ruling and by class (DESIGN §13; `yoke usage` and
// `yoke status` count held and refused calls). A fold over `tool.ruled` records.
import type { Ruling, ToolClass } from '../../config/types.js';
import type { JournalRecord } from '../journal/record.js';

/** Counts per ruling. */
export type RulingTally = { [R in Ruling]: number };

/** The tool calls ruled on: in all, per ruling, per class and ruling, unreadable ones, and advisory (not enforced) ones. */
export interface ToolRulingCounts extends RulingTally {
  total: number;
  byClass: Partial<Record<ToolClass, RulingTally>>;
  /** refused because the hook's request could not be read (counted in `refuse`, in no class) */
  unreadable: number;
  /** ruled with `tool-control advisory`: recorded, not enforced (counted by their ruling too) */
  advisory: number;
}

/** No rulings. */
export function noRulings(): ToolRulingCounts {
  return { total: 0, pass: 0, hold: 0, refuse: 0, byClass: {}, unreadable: 0, advisory: 0 };
}

/**
 * Counts the rulings of the runs `include` accepts (every run by default), added to `from` (the
 * counts of earlier records, e.g. a checkpoint's; not changed).
 * @example countToolRulings(records).refuse // 2
 */
export function countToolRulings(records: readonly JournalRecord[], include: (run: string | null) => boolean = () => true, from: ToolRulingCounts = noRulings()): ToolRulingCounts {
  const counts: ToolRulingCounts = { ...from, byClass: Object.fromEntries(Object.entries(from.byClass).map(([name, tally]) => [name, { ...tally }])) };
  for (const record of records) {
    if (record.type !== 'tool.ruled' || !include(record.run)) continue;
    const { ruling, class: toolClass, enforced } = record.payload;
    counts.total += 1;
    counts[ruling] += 1;
    if (!enforced) counts.advisory += 1;
    if (toolClass === null) counts.unreadable += 1;
    else {
      const tally = counts.byClass[toolClass] ?? { pass: 0, hold: 0, refuse: 0 };
      tally[ruling] += 1;
      counts.byClass[toolClass] = tally;
    }
  }
  return counts;
}

/** One line for people: "5 ruled: 3 passed, 1 held (network 1), 1 refused (destructive 1)". */
export function rulingCountsText(counts: ToolRulingCounts): string {
  const of = (ruling: Ruling): string => {
    const classes = Object.entries(counts.byClass).filter(([, tally]) => tally[ruling] > 0).map(([name, tally]) => `${name} ${tally[ruling]}`);
    if (ruling === 'refuse' && counts.unreadable > 0) classes.push(`unreadable ${counts.unreadable}`);
    return classes.length === 0 || ruling === 'pass' ? '' : ` (${classes.join(', ')})`;
  };
  const advisory = counts.advisory > 0 ? `; ${counts.advisory} advisory, not enforced` : '';
  return `${counts.total} ruled: ${counts.pass} passed, ${counts.hold} held${of('hold')}, ${counts.refuse} refused${of('refuse')}${advisory}`;
}
