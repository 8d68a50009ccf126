// store/projections/status-view.ts: a view is trusted only while the journal's stored head is exactly the one it was computed at.
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileJournalReader } from '../../../store/journal/file/file-journal-reader.js';
import { openFileJournal } from '../../../store/journal/file/open-file-journal.js';
import type { RunSummary } from '../../../store/projections/run-summary.js';
import { readTrustedStatusView, viewKey, writeStatusView, type StatusView } from '../../../store/projections/status-view.js';
import { noRulings } from '../../../store/projections/tool-ruling-counts.js';
import { totalUsage } from '../../../store/projections/usage-ledger.js';
import { editRecord } from '../../support/journal-edit.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const summary = { run: '01BENCHRVN0000000000000000', status: 'unfinished', unit: 'iteration', progress: null } as RunSummary;
const resumed = (pid: number) => ({ type: 'run.resumed' as const, run: summary.run, machine: 'loop', mv: 1, payload: { pid } });

/** A journal of `n` records and a view saved for its head. */
async function journalWithView(n: number) {
  const dir = mkdtempSync(join(tmpdir(), 'yoke-view-'));
  dirs.push(dir);
  const path = join(dir, 'journal.jsonl');
  const viewPath = join(dir, 'status.json');
  const journal = await openFileJournal(path);
  for (let i = 0; i < n; i += 1) await journal.append(resumed(i));
  const head = () => new FileJournalReader(path).head();
  const view: StatusView = { v: 2, summary, usage: totalUsage([]), rulings: noRulings(), phase: 'worker agent', journal: viewKey(await head()) };
  writeStatusView(viewPath, view);
  return { path, viewPath, journal, view, head };
}

describe('readTrustedStatusView', () => {
  it('returns the view while the journal still ends at its head', async () => {
    const { viewPath, journal, view, head } = await journalWithView(5);
    expect(readTrustedStatusView(viewPath, await head())).toEqual(view);
    expect(view.journal).toMatchObject({ seq: 5 });
    await journal.close();
  });

  it('ignores it once a record is appended, a record is edited (the last or an earlier one), a torn tail follows, or the view is garbled or older', async () => {
    const appended = await journalWithView(3);
    await appended.journal.append(resumed(9));
    expect(readTrustedStatusView(appended.viewPath, await appended.head())).toBeNull();
    await appended.journal.close();

    const edited = await journalWithView(3);
    await edited.journal.close();
    editRecord(edited.path, 3, (record) => {
      record.payload = { pid: 99 };
    });
    expect(readTrustedStatusView(edited.viewPath, await edited.head())).toBeNull();

    const middle = await journalWithView(4);
    await middle.journal.close();
    // let the clock move past the write's mtime tick, as any real edit does
    await new Promise((resolve) => setTimeout(resolve, 20));
    editRecord(middle.path, 2, (record) => {
      record.payload = { pid: 77 };
    });
    expect((await middle.head()).hash).toBe(middle.view.journal.hash); // the head alone cannot tell
    expect(readTrustedStatusView(middle.viewPath, await middle.head())).toBeNull();

    const torn = await journalWithView(2);
    await torn.journal.close();
    appendFileSync(torn.path, '{"v":1,"se');
    expect(readTrustedStatusView(torn.viewPath, await torn.head())).toBeNull();

    const garbled = await journalWithView(2);
    writeFileSync(garbled.viewPath, '{"v":2,"summ');
    expect(readTrustedStatusView(garbled.viewPath, await garbled.head())).toBeNull();
    writeFileSync(garbled.viewPath, JSON.stringify({ ...garbled.view, v: 1 }));
    expect(readTrustedStatusView(garbled.viewPath, await garbled.head())).toBeNull();
    // a view saved by a yoke that did not count tool rulings yet
    writeFileSync(garbled.viewPath, JSON.stringify({ ...garbled.view, rulings: undefined }));
    expect(readTrustedStatusView(garbled.viewPath, await garbled.head())).toBeNull();
    // a summary saved by a yoke that said `stories` and had no unit
    const { unit: _unit, progress: _progress, ...older } = summary;
    writeFileSync(garbled.viewPath, JSON.stringify({ ...garbled.view, summary: { ...older, stories: null } }));
    expect(readTrustedStatusView(garbled.viewPath, await garbled.head())).toBeNull();
    rmSync(garbled.viewPath);
    expect(readTrustedStatusView(garbled.viewPath, await garbled.head())).toBeNull();
    await garbled.journal.close();
  });
});
