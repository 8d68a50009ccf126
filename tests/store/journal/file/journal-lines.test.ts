// store/journal/file/journal-lines.ts and the streamed JournalStream: every chunk size, lines across chunk
// boundaries, a torn tail, and the same verdicts as reading the whole file.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { JournalStream, readJournalFile } from '../../../../store/journal/file/journal-file.js';
import { JournalLineReader } from '../../../../store/journal/file/journal-lines.js';
import { openFileJournal } from '../../../../store/journal/file/open-file-journal.js';
import { YokeError } from '../../../../errors/yoke-error.js';
import { appendTornLine, rewriteLine } from '../../../support/journal-edit.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempFile(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'yoke-journal-lines-'));
  dirs.push(dir);
  return join(dir, name);
}

/** A real journal whose lines have different lengths (and a multi-byte character). */
async function writtenJournal(): Promise<string> {
  const path = tempFile('journal.jsonl');
  const journal = await openFileJournal(path);
  for (let i = 0; i < 12; i += 1) {
    await journal.append({ type: 'run.abandoned', run: 'RUN-A', machine: 'loop', mv: 1, payload: { reason: `stop ${'é'.repeat(i * 7)} ${i}` } });
  }
  await journal.close();
  return path;
}

describe('JournalLineReader', () => {
  it('yields the same lines for every chunk size, including lines longer than a chunk', () => {
    const path = tempFile('lines.txt');
    const lines = ['a', '', 'é'.repeat(40), 'bc', 'x'.repeat(100)];
    writeFileSync(path, `${lines.join('\n')}\n`);
    for (const chunk of [1, 2, 3, 5, 7, 16, 64, 1 << 16]) {
      const reader = new JournalLineReader(path, undefined, chunk);
      expect([...reader].map((line) => line.text), `chunk ${chunk}`).toEqual(lines);
      expect([...reader].map((line) => line.number)).toEqual([1, 2, 3, 4, 5]);
      expect(reader.torn).toBeNull();
      expect(reader.validBytes).toBe(Buffer.byteLength(`${lines.join('\n')}\n`));
    }
  });

  it('reports a last line without its newline as torn, with its line number and bytes', () => {
    const path = tempFile('torn.txt');
    writeFileSync(path, 'one\ntwo\nthr');
    for (const chunk of [1, 4, 5, 1024]) {
      const reader = new JournalLineReader(path, undefined, chunk);
      expect([...reader].map((line) => line.text)).toEqual(['one', 'two']);
      expect(reader.torn).toEqual({ line: 3, bytes: 3 });
      expect(reader.validBytes).toBe(8);
    }
  });

  it('stops at limitBytes and treats a missing file as empty', () => {
    const path = tempFile('limit.txt');
    writeFileSync(path, 'one\ntwo\nthree\n');
    const reader = new JournalLineReader(path, 8, 3);
    expect([...reader].map((line) => line.text)).toEqual(['one', 'two']);
    expect(reader.torn).toBeNull();
    expect([...new JournalLineReader(tempFile('missing.txt'))]).toEqual([]);
  });
});

describe('JournalStream', () => {
  it('yields exactly the records readJournalFile reads, whatever the chunk size', async () => {
    const path = await writtenJournal();
    const whole = readJournalFile(path);
    for (const chunk of [1, 13, 200, 1 << 20]) {
      const stream = new JournalStream(path, undefined, chunk);
      expect([...stream]).toEqual(whole.records);
      expect(stream.lastHash).toBe(whole.lastHash);
      expect(stream.validBytes).toBe(whole.validBytes);
    }
  });

  it('reports a torn tail like readJournalFile and yields the records before it', async () => {
    const path = await writtenJournal();
    appendTornLine(path, 3);
    const whole = readJournalFile(path);
    const stream = new JournalStream(path, undefined, 7);
    expect([...stream]).toEqual(whole.records);
    expect(stream.torn).toEqual(whole.torn);
  });

  it('refuses an edited line with the same message naming the line', async () => {
    const path = await writtenJournal();
    rewriteLine(path, 5, (line) => line.replace('"seq":5', '"seq":6'));
    const expected = messageOf(() => readJournalFile(path));
    expect(expected).toMatch(/:5: the journal is corrupt/);
    expect(messageOf(() => [...new JournalStream(path, undefined, 11)])).toBe(expected);
  });
});

function messageOf(read: () => unknown): string {
  try {
    read();
  } catch (error) {
    if (error instanceof YokeError) return error.message;
    throw error;
  }
  throw new Error('expected a refusal');
}
