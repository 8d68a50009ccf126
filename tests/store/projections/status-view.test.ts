// store/projections/status-view.ts: a view is trusted only while the journal on disk is exactly the one it describes.
import { appendFileSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Journal } from '../../../store/journal/file/journal.js';
import type { RunSummary } from '../../../store/projections/run-summary.js';
import { journalTail, readTrustedStatusView, writeStatusView, type StatusView } from '../../../store/projections/status-view.js';
import { totalUsage } from '../../../store/projections/usage-ledger.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const summary = { run: '01BENCHRVN0000000000000000', status: 'unfinished' } as RunSummary;

/** A journal of `n` records and a view saved for it. */
function journalWithView(n: number) {
  const dir = mkdtempSync(join(tmpdir(), 'yoke-view-'));
  dirs.push(dir);
  const path = join(dir, 'journal.jsonl');
  const viewPath = join(dir, 'status.json');
  const journal = Journal.open(path, () => undefined);
  for (let i = 0; i < n; i += 1) journal.append({ type: 'run.resumed', run: summary.run, machine: 'loop', mv: 1, payload: { pid: i } });
  const tail = journalTail(path, journal.records.length, journal.headHash);
  if (!tail) throw new Error('no tail');
  const view: StatusView = { v: 1, summary, usage: totalUsage([]), phase: 'worker agent', journal: tail };
  writeStatusView(viewPath, view);
  return { path, viewPath, journal, view };
}

describe('readTrustedStatusView', () => {
  it('returns the view while the journal is untouched', () => {
    const { path, viewPath, journal, view } = journalWithView(5);
    expect(readTrustedStatusView(viewPath, path)).toEqual(view);
    expect(view.journal).toMatchObject({ seq: 5 });
    journal.close();
  });

  it('ignores it once a record is appended, or the file is edited (even keeping size and mtime), or the view is garbled', () => {
    const appended = journalWithView(3);
    appended.journal.append({ type: 'run.resumed', run: summary.run, machine: 'loop', mv: 1, payload: { pid: 9 } });
    expect(readTrustedStatusView(appended.viewPath, appended.path)).toBeNull();
    appended.journal.close();

    const edited = journalWithView(3);
    edited.journal.close();
    const { mtimeMs, bytes } = edited.view.journal;
    appendFileSync(edited.path, 'x');
    expect(readTrustedStatusView(edited.viewPath, edited.path)).toBeNull();
    // same size and mtime, but the last line is different
    const text = `${'{}'.padEnd(bytes - 1, ' ')}\n`;
    writeFileSync(edited.path, text);
    utimesSync(edited.path, new Date(mtimeMs), new Date(mtimeMs));
    expect(readTrustedStatusView(edited.viewPath, edited.path)).toBeNull();

    const garbled = journalWithView(2);
    writeFileSync(garbled.viewPath, '{"v":1,"summ');
    expect(readTrustedStatusView(garbled.viewPath, garbled.path)).toBeNull();
    rmSync(garbled.viewPath);
    expect(readTrustedStatusView(garbled.viewPath, garbled.path)).toBeNull();
    garbled.journal.close();
  });

  it('journalTail refuses a hash that is not the last line on disk (records staged, not flushed)', () => {
    const { path, journal } = journalWithView(2);
    journal.stage({ type: 'run.resumed', run: summary.run, machine: 'loop', mv: 1, payload: { pid: 3 } });
    expect(journalTail(path, 3, journal.headHash)).toBeNull();
    journal.flush();
    expect(journalTail(path, 3, journal.headHash)).toMatchObject({ seq: 3 });
    journal.close();
  });
});
