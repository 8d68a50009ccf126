// Counting the gate's rulings (issue 13: `yoke usage` and `yoke status` count held and refused calls).
import { describe, expect, it } from 'vitest';
import type { JournalRecord } from '../../../store/journal/record.js';
import { countToolRulings, rulingCountsText } from '../../../store/projections/tool-ruling-counts.js';

const ruled = (run: string, ruling: 'pass' | 'hold' | 'refuse', toolClass: string | null, enforced = true): JournalRecord =>
  ({ type: 'tool.ruled', run, payload: { id: 'x', ruling, class: toolClass, classes: [], source: { kind: 'table' }, message: '', enforced } }) as unknown as JournalRecord;

const records = [
  ruled('A', 'pass', 'edit'), ruled('A', 'hold', 'network'), ruled('A', 'pass', 'network'),
  ruled('A', 'refuse', 'destructive'), ruled('A', 'refuse', null), ruled('B', 'pass', 'exec', false),
];

describe('countToolRulings', () => {
  it('counts per ruling and per class and ruling; unreadable refusals in no class; advisory ones apart', () => {
    expect(countToolRulings(records)).toEqual({
      total: 6, pass: 3, hold: 1, refuse: 2, unreadable: 1, advisory: 1,
      byClass: { edit: { pass: 1, hold: 0, refuse: 0 }, network: { pass: 1, hold: 1, refuse: 0 }, destructive: { pass: 0, hold: 0, refuse: 1 }, exec: { pass: 1, hold: 0, refuse: 0 } },
    });
  });

  it('counts one run only when asked, and says it in one line', () => {
    const a = countToolRulings(records, (run) => run === 'A');
    expect(a.total).toBe(5);
    expect(rulingCountsText(a)).toBe('5 ruled: 2 passed, 1 held (network 1), 2 refused (destructive 1, unreadable 1)');
    expect(rulingCountsText(countToolRulings(records, (run) => run === 'B'))).toBe('1 ruled: 1 passed, 0 held, 0 refused; 1 advisory, not enforced');
  });
});
