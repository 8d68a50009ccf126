// How each story or saga chunk of a run ended (store/projections/unit-outcomes.ts), folded from real
// journals (the golden ones) through their machines.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readJournalFile } from '../../../store/journal/file/journal-file.js';
import { runStarts } from '../../../store/fold/journal-runs.js';
import { unitOutcomes } from '../../../store/projections/unit-outcomes.js';

const golden = (name: string) => readJournalFile(join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'golden', name)).records;

function outcomes(name: string): Record<string, string> | null {
  const records = golden(name);
  const [started] = runStarts(records);
  if (!started) throw new Error(`${name} has no run`);
  const found = unitOutcomes(started, records);
  return found === null ? null : Object.fromEntries(found);
}

describe('unitOutcomes', () => {
  it('a saga chunk that bailed out failed; those its judge passed were accepted', () => {
    expect(outcomes('saga-done.v0.1.0.jsonl')).toEqual({ 'chunk:1': 'failed', 'chunk:2': 'accepted', 'chunk:3': 'accepted' });
  });

  it('a story that passed was accepted', () => {
    expect(outcomes('stories-done.v0.1.0.jsonl')).toEqual({ 'story:S1': 'accepted', 'story:S2': 'accepted', 'story:S3': 'accepted' });
    expect(outcomes('stories-escalate.v0.1.0.jsonl')).toEqual({ 'story:S1': 'accepted', 'story:S2': 'accepted' });
  });

  it('a run whose records its machine refuses ends no unit', () => {
    const records = golden('saga-done.v0.1.0.jsonl');
    const [started] = runStarts(records);
    if (!started) throw new Error('no run');
    const forged = records.map((record) => (record.seq === 11 ? { ...record, payload: { ...(record.payload as object), params: {} } } as typeof record : record));
    expect(unitOutcomes(started, forged)).toBeNull();
  });
});
