// store/journal/file/journal-file.ts on real files: journals written by the real Journal, then damaged byte by byte.
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readJournalFile } from '../../../../store/journal/file/journal-file.js';
import { recordHash } from '../../../../store/journal/record-chain.js';
import { GENESIS_HASH } from '../../../../store/journal/journal-head.js';
import { openFileJournal } from '../../../../store/journal/file/open-file-journal.js';
import { SCHEMA_VERSION } from '../../../../store/journal/record.js';
import { YokeError } from '../../../../errors/yoke-error.js';
import { appendTornLine, editRecord, journalLines, rewriteLine } from '../../../support/journal-edit.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A journal of four records written by the real writer (three appends, one staged batch). */
async function writtenJournal(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'yoke-journal-file-'));
  dirs.push(dir);
  const path = join(dir, 'journal.jsonl');
  const journal = await openFileJournal(path, {
    warn: (message) => {
      throw new Error(`unexpected warning: ${message}`);
    },
  });
  await journal.append({ type: 'run.resumed', run: 'RUN-A', machine: 'loop', mv: 1, payload: { pid: 1234 } });
  await journal.append({ type: 'run.interrupted', run: 'RUN-A', machine: 'loop', mv: 1, payload: { signal: 'SIGINT' } });
  journal.stage({ type: 'run.resumed', run: 'RUN-A', machine: 'loop', mv: 1, payload: { pid: 5678 } });
  journal.stage({ type: 'run.abandoned', run: 'RUN-A', machine: 'loop', mv: 1, payload: { reason: 'test' } });
  await journal.close();
  return path;
}

/** The YokeError `read()` throws (fails the test when it does not throw one). */
function refusal(read: () => unknown): YokeError {
  try {
    read();
  } catch (error) {
    if (error instanceof YokeError) return error;
    throw error;
  }
  throw new Error('expected the journal to be refused');
}

function expectRefused(path: string, line: number, why: RegExp): void {
  const error = refusal(() => readJournalFile(path));
  expect(error.code).toBe('workspace');
  expect(error.message).toContain(`${path}:${line}:`);
  expect(error.message).toMatch(why);
}

describe('readJournalFile', () => {
  it('parses a valid journal: every record, the head hash and the byte length', async () => {
    const path = await writtenJournal();
    const lines = journalLines(path);

    const contents = readJournalFile(path);

    expect(contents.torn).toBeNull();
    expect(contents.records.map((r) => [r.seq, r.type])).toEqual([
      [1, 'run.resumed'], [2, 'run.interrupted'], [3, 'run.resumed'], [4, 'run.abandoned'],
    ]);
    expect(contents.records[3]?.payload).toEqual({ reason: 'test' });
    expect(contents.records[0]?.prev).toBe(GENESIS_HASH);
    expect(contents.records[2]?.prev).toBe(recordHash(lines[1] ?? ''));
    expect(contents.lastHash).toBe(recordHash(lines[3] ?? ''));
    expect(contents.validBytes).toBe(statSync(path).size);
  });

  it('reads a missing journal as empty', () => {
    const dir = mkdtempSync(join(tmpdir(), 'yoke-journal-file-'));
    dirs.push(dir);
    expect(readJournalFile(join(dir, 'journal.jsonl'))).toEqual({ records: [], lastHash: GENESIS_HASH, validBytes: 0, torn: null });
  });

  it('reports a last line without its newline as torn, with its line number, not as an error', async () => {
    const path = await writtenJournal();
    const intact = statSync(path).size;
    const tornBytes = appendTornLine(path, 2);

    const contents = readJournalFile(path);

    expect(contents.torn).toEqual({ line: 5, bytes: tornBytes });
    expect(contents.records).toHaveLength(4);
    expect(contents.validBytes).toBe(intact);
    expect(contents.lastHash).toBe(recordHash(journalLines(path)[3] ?? ''));
  });

  it('treats a complete last record without its newline as torn too (its write never finished)', async () => {
    const path = await writtenJournal();
    const last = journalLines(path)[3] ?? '';
    const bytes = readFileSync(path);
    writeFileSync(path, bytes.subarray(0, bytes.length - 1));

    const contents = readJournalFile(path);

    expect(contents.torn).toEqual({ line: 4, bytes: Buffer.byteLength(last) });
    expect(contents.records).toHaveLength(3);
  });

  it('refuses a corrupted middle line (invalid JSON), naming path:line', async () => {
    const path = await writtenJournal();
    rewriteLine(path, 2, (line) => line.slice(0, 40));
    expectRefused(path, 2, /not valid JSON/);
  });

  it('refuses a bad complete last line instead of treating it as torn', async () => {
    const path = await writtenJournal();
    rewriteLine(path, 4, (line) => line.slice(0, 40));
    expectRefused(path, 4, /not valid JSON/);
  });

  it('refuses an empty line in the middle', async () => {
    const path = await writtenJournal();
    rewriteLine(path, 3, (line) => `\n${line}`);
    expectRefused(path, 3, /not valid JSON/);
  });

  it('refuses a record whose prev does not match the line before it', async () => {
    const path = await writtenJournal();
    editRecord(path, 3, (record) => {
      record.prev = 'f'.repeat(64);
    });
    expectRefused(path, 3, /chain is broken/);
  });

  it('refuses the record after an edited one: editing any field breaks the chain', async () => {
    const path = await writtenJournal();
    editRecord(path, 2, (record) => {
      record.payload = { signal: 'SIGTERM' };
    });
    expectRefused(path, 3, /chain is broken/);
  });

  it('refuses out-of-order sequence numbers (two records swapped)', async () => {
    const path = await writtenJournal();
    const lines = journalLines(path);
    rewriteLine(path, 2, () => lines[2] ?? '');
    rewriteLine(path, 3, () => lines[1] ?? '');
    expectRefused(path, 2, /sequence number 3 where 2 was expected/);
  });

  it('refuses a repeated sequence number', async () => {
    const path = await writtenJournal();
    editRecord(path, 4, (record) => {
      record.seq = 3;
    });
    expectRefused(path, 4, /sequence number 3 where 4 was expected/);
  });

  it('refuses a payload that does not fit its record type', async () => {
    const path = await writtenJournal();
    editRecord(path, 2, (record) => {
      record.payload = { signal: 15 };
    });
    expectRefused(path, 2, /run\.interrupted payload: signal/);
  });

  it('refuses an unknown record type', async () => {
    const path = await writtenJournal();
    editRecord(path, 2, (record) => {
      record.type = 'run.teleported';
    });
    expectRefused(path, 2, /type/);
  });

  it('refuses a record with a newer schema version, saying to upgrade', async () => {
    const path = await writtenJournal();
    editRecord(path, 3, (record) => {
      record.v = SCHEMA_VERSION + 1;
    });
    expectRefused(path, 3, /newer than this yoke understands.*upgrade yoke/);
  });

  it('refuses a newer schema version on the last line as well (it is not torn)', async () => {
    const path = await writtenJournal();
    editRecord(path, 4, (record) => {
      record.v = SCHEMA_VERSION + 1;
    });
    expectRefused(path, 4, /newer than this yoke understands/);
  });
});
