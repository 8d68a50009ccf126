// store/journal/file/file-journal-store.ts on real files: what only the file backend does (the
// integrity check by inode, size and mtime; YOKE_FAILPOINT in a real child process; the fence on a
// replaced file). The backend-neutral contract is tests/contract/journal-store.test.ts.
import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readJournalFile } from '../../../../store/journal/file/journal-file.js';
import { openFileJournal } from '../../../../store/journal/file/open-file-journal.js';
import { JournalHeadMoved } from '../../../../store/journal/journal-head.js';
import type { JournalWriter } from '../../../../store/journal/journal-writer.js';
import type { RecordDraft } from '../../../../store/journal/record.js';
import { repoRoot } from '../../../support/yoke-process.js';

const dirs: string[] = [];
const open: JournalWriter[] = [];
afterEach(async () => {
  for (const journal of open.splice(0)) {
    try {
      await journal.close();
    } catch {
      // broken by the test on purpose
    }
  }
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempJournalPath(): string {
  const dir = mkdtempSync(join(tmpdir(), 'yoke-file-store-'));
  dirs.push(dir);
  return join(dir, '.journal', 'journal.jsonl');
}

const draft = (n: number): RecordDraft => ({ type: 'run.resumed', run: 'RUN-A', machine: 'loop', mv: 1, payload: { pid: n } });

describe('the integrity check (untouched)', () => {
  async function openWithRecords(): Promise<{ path: string; journal: JournalWriter }> {
    const path = tempJournalPath();
    const journal = await openFileJournal(path);
    open.push(journal);
    await journal.append(draft(1));
    await journal.append(draft(2));
    return { path, journal };
  }

  it('is true after yoke’s own appends', async () => {
    const { journal } = await openWithRecords();
    expect(await journal.untouched()).toBe(true);
    await journal.append(draft(3));
    expect(await journal.untouched()).toBe(true);
  });

  it('is false after another process appends a line, and the next append is refused', async () => {
    const { path, journal } = await openWithRecords();
    appendFileSync(path, '{"forged":true}\n');
    expect(await journal.untouched()).toBe(false);
    await expect(journal.append(draft(3))).rejects.toBeInstanceOf(JournalHeadMoved);
    expect(readFileSync(path, 'utf8').endsWith('{"forged":true}\n')).toBe(true);
  });

  it('is false after the file is replaced by an identical copy (appends would go to the old one)', async () => {
    const { path, journal } = await openWithRecords();
    const copy = `${path}.copy`;
    writeFileSync(copy, readFileSync(path));
    renameSync(copy, path);
    expect(await journal.untouched()).toBe(false);
    await expect(journal.append(draft(3))).rejects.toBeInstanceOf(JournalHeadMoved);
  });

  it('is false after the file is deleted', async () => {
    const { path, journal } = await openWithRecords();
    rmSync(path);
    expect(await journal.untouched()).toBe(false);
  });

  it('is false after a same-size edit in place', async () => {
    const { path, journal } = await openWithRecords();
    // let the clock move past the flush's mtime tick, as any real agent run does
    await new Promise((resolve) => setTimeout(resolve, 20));
    const text = readFileSync(path, 'utf8');
    writeFileSync(path, text.replace('"pid":1', '"pid":9'));
    expect(statSync(path).size).toBe(text.length);
    expect(await journal.untouched()).toBe(false);
  });
});

describe('YOKE_FAILPOINT (a real child process)', () => {
  const opener = join(repoRoot, 'store', 'journal', 'file', 'open-file-journal.ts');

  /** Open a journal in a child Node with `failpoint`, append records 1..count, close; report how it ended. */
  function appendInChild(path: string, failpoint: string, count: number): ReturnType<typeof spawnSync> {
    const script = `
      import { openFileJournal } from ${JSON.stringify(opener)};
      const journal = await openFileJournal(${JSON.stringify(path)}, { warn: (m) => process.stderr.write(m + '\\n') });
      for (let n = 1; n <= ${count}; n += 1) {
        await journal.append({ type: 'run.resumed', run: 'RUN-A', machine: 'loop', mv: 1, payload: { pid: n } });
      }
      await journal.close();
    `;
    return spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: repoRoot,
      env: { ...process.env, YOKE_FAILPOINT: failpoint },
      encoding: 'utf8',
    });
  }

  it('crash-after:N dies by SIGKILL with exactly N records durable', () => {
    const path = tempJournalPath();
    const child = appendInChild(path, 'crash-after:2', 4);
    expect(child.signal, String(child.stderr)).toBe('SIGKILL');
    const contents = readJournalFile(path);
    expect(contents.torn).toBeNull();
    expect(contents.records.map((r) => r.seq)).toEqual([1, 2]);
  });

  it('torn-at:N dies leaving N-1 records and a torn line N, which the next open repairs', async () => {
    const path = tempJournalPath();
    const child = appendInChild(path, 'torn-at:3', 4);
    expect(child.signal, String(child.stderr)).toBe('SIGKILL');
    const contents = readJournalFile(path);
    expect(contents.records.map((r) => r.seq)).toEqual([1, 2]);
    expect(contents.torn?.line).toBe(3);

    const warnings: string[] = [];
    const journal = await openFileJournal(path, { warn: (message) => warnings.push(message) });
    open.push(journal);
    expect(warnings[0]).toContain(`${path}:3:`);
    expect(journal.records.map((r) => r.type)).toEqual(['run.resumed', 'run.resumed', 'journal.repaired']);
  });

  it('a malformed YOKE_FAILPOINT warns and changes nothing', () => {
    const path = tempJournalPath();
    const child = appendInChild(path, 'crash-after:soon', 3);
    expect(child.status, String(child.stderr)).toBe(0);
    expect(String(child.stderr)).toContain('ignoring YOKE_FAILPOINT=crash-after:soon');
    expect(readJournalFile(path).records).toHaveLength(3);
  });
});
