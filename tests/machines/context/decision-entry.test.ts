import { describe, expect, it } from 'vitest';
import { appendDecision, decisionEntry, decisionSummary, utcDate } from '../../../machines/context/decision-entry.js';

describe('decisionEntry', () => {
  it('dates the entry with the journaled clock in UTC and uses the em dash', () => {
    expect(decisionEntry({ now: Date.UTC(2026, 11, 1, 23, 59), id: 'S-2', title: 'Sign-up', notes: null })).toBe(
      '## 2026-12-01 — S-2: Sign-up\nSign-up\n',
    );
  });

  it('takes the first Decision: line of the notes, without its prefix', () => {
    const notes = 'STATUS: DONE\nDid things.\nDecision: sessions live in Redis\nDecision: second';
    expect(decisionSummary(notes, 'T')).toBe('sessions live in Redis');
  });

  it('falls back to the title when no line starts with Decision:', () => {
    expect(decisionSummary('STATUS: DONE\nno decision here', 'The title')).toBe('The title');
    expect(decisionSummary('Decision:   ', 'The title')).toBe('The title');
  });
});

describe('appendDecision', () => {
  it('keeps the ledger byte for byte and separates entries by one blank line', () => {
    expect(appendDecision(null, 'E\n')).toBe('E\n');
    expect(appendDecision('# Decisions\n', 'E\n')).toBe('# Decisions\n\nE\n');
    expect(appendDecision('# Decisions', 'E\n')).toBe('# Decisions\n\nE\n');
  });
});

describe('utcDate', () => {
  it('agrees with Date for instants across four centuries', () => {
    for (let ms = Date.UTC(1900, 0, 1); ms < Date.UTC(2300, 0, 1); ms += 86_400_000 * 37 + 3_600_000) {
      expect(utcDate(ms)).toBe(new Date(ms).toISOString().slice(0, 10));
    }
  });
});
