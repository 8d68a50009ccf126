// store/journal/journal-writer.ts on the file backend (real files): append, reopen, staging, the
// listener, torn-tail repair, reuse of an earlier read, flushes in order, the rescue.
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileJournalStore } from '../../../store/journal/file/file-journal-store.js';
import { readJournalFile } from '../../../store/journal/file/journal-file.js';
import { openFileJournal } from '../../../store/journal/file/open-file-journal.js';
import { GENESIS_HASH, JournalHeadMoved } from '../../../store/journal/journal-head.js';
import type { JournalWriter } from '../../../store/journal/journal-writer.js';
import { readJournal } from '../../../store/journal/read-journal.js';
import { recordHash } from '../../../store/journal/record-chain.js';
import { SCHEMA_VERSION, type RecordDraft } from '../../../store/journal/record.js';
import { appendTornLine, journalLines } from '../../support/journal-edit.js';

const dirs: string[] = [];
const open: JournalWriter[] = [];
afterEach(async () => {
  for (const journal of open.splice(0)) {
    try {
      await journal.close();
    } catch {
      // closed (or broken) by the test already
    }
  }
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempJournalPath(): string {
  const dir = mkdtempSync(join(tmpdir(), 'yoke-journal-'));
  dirs.push(dir);
  // a folder that does not exist yet: opening for writing creates it
  return join(dir, '.journal', 'journal.jsonl');
}

/** Open a writer, collecting its warnings. */
async function openJournal(path: string): Promise<{ journal: JournalWriter; warnings: string[] }> {
  const warnings: string[] = [];
  const journal = await openFileJournal(path, { warn: (message) => warnings.push(message) });
  open.push(journal);
  return { journal, warnings };
}

const draft = (n: number): RecordDraft => ({ type: 'run.resumed', run: 'RUN-A', machine: 'loop', mv: 1, payload: { pid: n } });

describe('JournalWriter', () => {
  it('appends records that read back identically after reopening', async () => {
    const path = tempJournalPath();
    const first = await openJournal(path);
    const written = [
      await first.journal.append(draft(1)),
      await first.journal.append({ type: 'run.interrupted', run: 'RUN-A', machine: 'loop', mv: 1, payload: { signal: 'SIGTERM' } }),
      await first.journal.append({ type: 'journal.repaired', run: null, machine: null, mv: null, payload: { offset: 700, droppedBytes: 12 } }),
    ];
    await first.journal.close();

    const again = await openJournal(path);

    expect(again.warnings).toEqual([]);
    expect(again.journal.records).toEqual(written);
    expect(written.map((r) => [r.v, r.seq])).toEqual([[SCHEMA_VERSION, 1], [SCHEMA_VERSION, 2], [SCHEMA_VERSION, 3]]);
    expect(new Set(written.map((r) => r.id)).size).toBe(3);
    const lines = journalLines(path);
    expect(written[0]?.prev).toBe(GENESIS_HASH);
    expect(written[1]?.prev).toBe(recordHash(lines[0] ?? ''));
    expect(again.journal.head).toEqual({ seq: 3, hash: recordHash(lines[2] ?? '') });
    expect(again.journal.durableHead).toEqual(again.journal.head);
    // the next append continues the sequence and the chain
    const next = await again.journal.append(draft(4));
    expect(next.seq).toBe(4);
    expect(next.prev).toBe(recordHash(lines[2] ?? ''));
    expect(readJournalFile(path).records).toHaveLength(4);
  });

  it('keeps staged records off disk until flush, then writes them all in one batch', async () => {
    const path = tempJournalPath();
    const { journal } = await openJournal(path);
    await journal.append(draft(1));
    const before = readFileSync(path);
    journal.stage(draft(2));
    journal.stage(draft(3));

    expect(readFileSync(path)).toEqual(before);
    expect(journal.records).toHaveLength(3);
    expect(journal.head.seq).toBe(3);
    expect(journal.durableHead.seq).toBe(1);

    await journal.flush();
    expect(readJournalFile(path).records.map((r) => r.seq)).toEqual([1, 2, 3]);
    expect(journal.durableHead).toEqual(journal.head);
  });

  it('starts a flush at once when none is in flight: the file holds the batch when flush() returns', async () => {
    const path = tempJournalPath();
    const { journal } = await openJournal(path);
    journal.stage(draft(1));
    const flushed = journal.flush();
    expect(readJournalFile(path).records.map((r) => r.seq)).toEqual([1]);
    await flushed;
  });

  it('runs flushes one after another, each at the head the one before left', async () => {
    const path = tempJournalPath();
    const { journal } = await openJournal(path);
    journal.stage(draft(1));
    const first = journal.flush();
    journal.stage(draft(2));
    journal.stage(draft(3));
    const second = journal.flush();
    await Promise.all([first, second]);
    expect(readJournalFile(path).records.map((r) => r.seq)).toEqual([1, 2, 3]);
  });

  it('tells the listener about every staged record', async () => {
    const { journal } = await openJournal(tempJournalPath());
    const heard: number[] = [];
    journal.listener = (record) => heard.push(record.seq);
    journal.stage(draft(1));
    await journal.append(draft(2));
    expect(heard).toEqual([1, 2]);
  });

  it('cuts off a torn tail on open, warns with path:line, and journals a chained journal.repaired naming the offset', async () => {
    const path = tempJournalPath();
    const first = await openJournal(path);
    for (const n of [1, 2, 3]) await first.journal.append(draft(n));
    await first.journal.close();
    const intactLines = journalLines(path);
    const intactBytes = readFileSync(path).length;
    const droppedBytes = appendTornLine(path, 3);

    const repaired = await openJournal(path);

    expect(repaired.warnings).toHaveLength(1);
    expect(repaired.warnings[0]).toContain(`${path}:4:`);
    expect(repaired.warnings[0]).toContain(`${droppedBytes} bytes`);
    const repair = repaired.journal.records[3];
    expect(repair?.type).toBe('journal.repaired');
    expect(repair?.seq).toBe(4);
    expect(repair?.payload).toEqual({ offset: intactBytes, droppedBytes });
    expect(repair?.prev).toBe(recordHash(intactLines[2] ?? ''));
    // on disk: the intact lines, byte for byte, then the repair record
    const lines = journalLines(path);
    expect(lines.slice(0, 3)).toEqual(intactLines);
    expect(lines).toHaveLength(4);
    expect(readFileSync(path, 'utf8').endsWith('\n')).toBe(true);
    await repaired.journal.close();

    const reopened = await openJournal(path);
    expect(reopened.warnings).toEqual([]);
    expect(reopened.journal.records.filter((r) => r.type === 'journal.repaired')).toHaveLength(1);
    expect(reopened.journal.records).toHaveLength(4);
    expect((await reopened.journal.append(draft(5))).prev).toBe(recordHash(lines[3] ?? ''));
  });

  it('repairs a journal whose only line is torn', async () => {
    const path = tempJournalPath();
    const first = await openJournal(path);
    await first.journal.append(draft(1));
    await first.journal.close();
    const bytes = readFileSync(path);
    writeFileSync(path, bytes.subarray(0, 20));

    const repaired = await openJournal(path);

    expect(repaired.warnings[0]).toContain(`${path}:1:`);
    expect(repaired.journal.records.map((r) => [r.seq, r.type, r.prev, r.payload])).toEqual([[1, 'journal.repaired', GENESIS_HASH, { offset: 0, droppedBytes: 20 }]]);
    expect(readJournalFile(path).records).toHaveLength(1);
  });

  it('reuses a read taken earlier while the journal still ends where it ended, and reads again when it moved', async () => {
    const path = tempJournalPath();
    const first = await openJournal(path);
    await first.journal.append(draft(1));
    await first.journal.close();
    const store = () => new FileJournalStore(path, { warn: () => undefined });
    const known = await readJournal(store());
    const marker = { ...known, records: known.records.map((record) => ({ ...record, id: record.id })) };

    const reused = await openFileJournal(path, { known: marker });
    open.push(reused);
    expect(reused.records[0]).toBe(marker.records[0]);
    await reused.append(draft(2));
    await reused.close();

    const moved = await openFileJournal(path, { known: marker });
    open.push(moved);
    expect(moved.records.map((r) => r.seq)).toEqual([1, 2]);
  });

  it('is broken after a refused flush: the records it staged are not known to be stored', async () => {
    const path = tempJournalPath();
    const { journal } = await openJournal(path);
    await journal.append(draft(1));
    appendFileSync(path, `${journalLines(path)[0] ?? ''}\n`); // someone else wrote meanwhile
    journal.stage(draft(2));
    await expect(journal.flush()).rejects.toBeInstanceOf(JournalHeadMoved);
    journal.stage(draft(3));
    await expect(journal.flush()).rejects.toBeInstanceOf(JournalHeadMoved);
  });

  it('the rescue puts its own durable records back after someone rewrote the journal', async () => {
    const path = tempJournalPath();
    const { journal } = await openJournal(path);
    const own = [await journal.append(draft(1)), await journal.append(draft(2))];
    writeFileSync(path, 'not a journal\n');
    expect(await journal.untouched()).toBe(false);
    const { keptAs } = await journal.rescue();
    expect(keptAs && readFileSync(keptAs, 'utf8')).toBe('not a journal\n');
    expect(await journal.untouched()).toBe(true);
    expect(readJournalFile(path).records).toEqual(own);
    await journal.append(draft(3));
    expect(readJournalFile(path).records).toHaveLength(3);
  });
});
