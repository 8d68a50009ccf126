// store/journal/file/journal-tail.ts: the head and a torn tail read from the end of the file, whatever the line lengths.
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readFileTail } from '../../../../store/journal/file/journal-tail.js';
import { EMPTY_HEAD } from '../../../../store/journal/journal-head.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function file(text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'yoke-tail-'));
  dirs.push(dir);
  const path = join(dir, 'journal.jsonl');
  writeFileSync(path, text);
  return path;
}

const sha = (text: string) => createHash('sha256').update(text).digest('hex');
const line = (seq: number, padding = 0) => JSON.stringify({ seq, pad: 'x'.repeat(padding) });

describe('readFileTail', () => {
  it('a missing or empty file is the empty head', () => {
    expect(readFileTail(join(tmpdir(), 'yoke-no-such-journal.jsonl'))).toEqual({ head: EMPTY_HEAD, torn: null, size: 0, stamp: null });
    expect(readFileTail(file(''))).toMatchObject({ head: EMPTY_HEAD, torn: null, size: 0 });
  });

  it.each([0, 10, 4090, 5000, 70_000])('names the last complete line (%i bytes of padding), however long it and the one before are', (padding) => {
    const lines = [line(1, padding), line(2, padding), line(3, padding)];
    const tail = readFileTail(file(`${lines.join('\n')}\n`));
    expect(tail.head).toEqual({ seq: 3, hash: sha(lines[2] ?? '') });
    expect(tail.torn).toBeNull();
  });

  it.each([0, 5000, 70_000])('reports a torn tail after the last complete line (%i bytes of padding) with its offset and length', (padding) => {
    const lines = [line(1, padding), line(2, padding)];
    const intact = `${lines.join('\n')}\n`;
    const torn = line(3, padding).slice(0, Math.max(5, padding));
    const tail = readFileTail(file(intact + torn));
    expect(tail.head).toEqual({ seq: 2, hash: sha(lines[1] ?? '') });
    expect(tail.torn).toEqual({ offset: Buffer.byteLength(intact), bytes: Buffer.byteLength(torn) });
  });

  it('a file that is one torn line has the empty head and a tail torn from byte 0', () => {
    expect(readFileTail(file('{"seq":1,"ha'))).toMatchObject({ head: EMPTY_HEAD, torn: { offset: 0, bytes: 12 } });
  });

  it('a last line that holds no seq has seq 0 (no real head has), with its hash', () => {
    expect(readFileTail(file(`${line(1)}\nnot json\n`)).head).toEqual({ seq: 0, hash: sha('not json') });
    expect(readFileTail(file(`${line(1)}\n{"seq":"2"}\n`)).head.seq).toBe(0);
  });

  it('stamps the file: another write changes the stamp even when the last line and the size stay', async () => {
    const path = file(`${line(1)}\n${line(2)}\n`);
    const before = readFileTail(path);
    // let the clock move past the write's mtime tick, as any real edit does
    await new Promise((resolve) => setTimeout(resolve, 20));
    writeFileSync(path, `${line(9)}\n${line(2)}\n`);
    const after = readFileTail(path);
    expect(after.head).toEqual(before.head);
    expect(after.stamp).not.toBe(before.stamp);
  });
});
