// store/journal/file/journal.ts and store/journal/failpoint.ts on real files: append, reopen, torn-tail repair, tamper view.
import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readFailpoint } from '../../../store/journal/failpoint.js';
import { readJournalFile } from '../../../store/journal/file/journal-file.js';
import { recordHash as hashLine } from '../../../store/journal/record-chain.js';
import { GENESIS_HASH } from '../../../store/journal/journal-head.js';
import { Journal } from '../../../store/journal/file/journal.js';
import { SCHEMA_VERSION, type RecordDraft } from '../../../store/journal/record.js';
import { appendTornLine, journalLines } from '../../support/journal-edit.js';
import { repoRoot } from '../../support/yoke-process.js';

const dirs: string[] = [];
const open: Journal[] = [];
afterEach(() => {
  for (const journal of open.splice(0)) {
    try {
      journal.close();
    } catch {
      // already closed by the test
    }
  }
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempJournalPath(): string {
  const dir = mkdtempSync(join(tmpdir(), 'yoke-journal-'));
  dirs.push(dir);
  // a folder that does not exist yet: open() creates it
  return join(dir, '.journal', 'journal.jsonl');
}

/** Open a journal, collecting its warnings. */
function openJournal(path: string): { journal: Journal; warnings: string[] } {
  const warnings: string[] = [];
  const journal = Journal.open(path, (message) => warnings.push(message));
  open.push(journal);
  return { journal, warnings };
}

const draft = (n: number): RecordDraft => ({ type: 'run.resumed', run: 'RUN-A', machine: 'loop', mv: 1, payload: { pid: n } });

describe('Journal', () => {
  it('appends records that read back identically after reopening', () => {
    const path = tempJournalPath();
    const first = openJournal(path);
    const written = [
      first.journal.append(draft(1)),
      first.journal.append({ type: 'run.interrupted', run: 'RUN-A', machine: 'loop', mv: 1, payload: { signal: 'SIGTERM' } }),
      first.journal.append({ type: 'journal.repaired', run: null, machine: null, mv: null, payload: { line: 7, droppedBytes: 12 } }),
    ];
    first.journal.close();

    const again = openJournal(path);

    expect(again.warnings).toEqual([]);
    expect(again.journal.records).toEqual(written);
    expect(written.map((r) => [r.v, r.seq])).toEqual([[SCHEMA_VERSION, 1], [SCHEMA_VERSION, 2], [SCHEMA_VERSION, 3]]);
    expect(new Set(written.map((r) => r.id)).size).toBe(3);
    const lines = journalLines(path);
    expect(written[0]?.prev).toBe(GENESIS_HASH);
    expect(written[1]?.prev).toBe(hashLine(lines[0] ?? ''));
    expect(again.journal.headHash).toBe(hashLine(lines[2] ?? ''));
    expect(again.journal.durableBytes).toBe(statSync(path).size);
    // the next append continues the sequence and the chain
    const next = again.journal.append(draft(4));
    expect(next.seq).toBe(4);
    expect(next.prev).toBe(hashLine(lines[2] ?? ''));
    expect(readJournalFile(path).records).toHaveLength(4);
  });

  it('keeps staged records off disk until flush, then writes them all', () => {
    const path = tempJournalPath();
    const { journal } = openJournal(path);
    journal.append(draft(1));
    const before = readFileSync(path);
    journal.stage(draft(2));
    journal.stage(draft(3));

    expect(readFileSync(path)).toEqual(before);
    expect(journal.records).toHaveLength(3);

    journal.flush();
    expect(readJournalFile(path).records.map((r) => r.seq)).toEqual([1, 2, 3]);
    expect(journal.durableBytes).toBe(statSync(path).size);
  });

  it('tells the listener about every staged record', () => {
    const { journal } = openJournal(tempJournalPath());
    const heard: number[] = [];
    journal.listener = (record) => heard.push(record.seq);
    journal.stage(draft(1));
    journal.append(draft(2));
    expect(heard).toEqual([1, 2]);
  });

  it('cuts off a torn tail on open, warns with path:line, and journals a chained journal.repaired', () => {
    const path = tempJournalPath();
    const first = openJournal(path);
    for (const n of [1, 2, 3]) first.journal.append(draft(n));
    first.journal.close();
    const intactLines = journalLines(path);
    const droppedBytes = appendTornLine(path, 3);

    const repaired = openJournal(path);

    expect(repaired.warnings).toHaveLength(1);
    expect(repaired.warnings[0]).toContain(`${path}:4:`);
    expect(repaired.warnings[0]).toContain(`${droppedBytes} bytes`);
    const repair = repaired.journal.records[3];
    expect(repair?.type).toBe('journal.repaired');
    expect(repair?.seq).toBe(4);
    expect(repair?.payload).toEqual({ line: 4, droppedBytes });
    expect(repair?.prev).toBe(hashLine(intactLines[2] ?? ''));
    // on disk: the intact lines, byte for byte, then the repair record
    const lines = journalLines(path);
    expect(lines.slice(0, 3)).toEqual(intactLines);
    expect(lines).toHaveLength(4);
    expect(readFileSync(path, 'utf8').endsWith('\n')).toBe(true);
    expect(repaired.journal.durableBytes).toBe(statSync(path).size);
    repaired.journal.close();

    const reopened = openJournal(path);
    expect(reopened.warnings).toEqual([]);
    expect(reopened.journal.records.filter((r) => r.type === 'journal.repaired')).toHaveLength(1);
    expect(reopened.journal.records).toHaveLength(4);
    expect(reopened.journal.append(draft(5)).prev).toBe(hashLine(lines[3] ?? ''));
  });

  it('repairs a journal whose only line is torn', () => {
    const path = tempJournalPath();
    const first = openJournal(path);
    first.journal.append(draft(1));
    first.journal.close();
    const bytes = readFileSync(path);
    writeFileSync(path, bytes.subarray(0, 20));

    const repaired = openJournal(path);

    expect(repaired.warnings[0]).toContain(`${path}:1:`);
    expect(repaired.journal.records.map((r) => [r.seq, r.type, r.prev])).toEqual([[1, 'journal.repaired', GENESIS_HASH]]);
    expect(readJournalFile(path).records).toHaveLength(1);
  });

  describe('untouchedOnDisk', () => {
    function openWithRecords(): { path: string; journal: Journal } {
      const path = tempJournalPath();
      const { journal } = openJournal(path);
      journal.append(draft(1));
      journal.append(draft(2));
      return { path, journal };
    }

    it('is true after yoke’s own appends', () => {
      const { journal } = openWithRecords();
      expect(journal.untouchedOnDisk()).toBe(true);
      journal.append(draft(3));
      expect(journal.untouchedOnDisk()).toBe(true);
    });

    it('is false after another process appends a line', () => {
      const { path, journal } = openWithRecords();
      appendFileSync(path, '{"forged":true}\n');
      expect(journal.untouchedOnDisk()).toBe(false);
    });

    it('is false after the file is replaced by an identical copy', () => {
      const { path, journal } = openWithRecords();
      const copy = `${path}.copy`;
      writeFileSync(copy, readFileSync(path));
      renameSync(copy, path);
      expect(journal.untouchedOnDisk()).toBe(false);
    });

    it('is false after the file is deleted', () => {
      const { path, journal } = openWithRecords();
      rmSync(path);
      expect(journal.untouchedOnDisk()).toBe(false);
    });

    it('is false after a same-size edit in place', async () => {
      const { path, journal } = openWithRecords();
      // let the clock move past the flush's mtime tick, as any real agent run does
      await new Promise((resolve) => setTimeout(resolve, 20));
      const text = readFileSync(path, 'utf8');
      writeFileSync(path, text.replace('"pid":1', '"pid":9'));
      expect(statSync(path).size).toBe(text.length);
      expect(journal.untouchedOnDisk()).toBe(false);
    });
  });
});

describe('readFailpoint (YOKE_FAILPOINT)', () => {
  function read(value: string | undefined): { failpoint: ReturnType<typeof readFailpoint>; warnings: string[] } {
    const warnings: string[] = [];
    const env: NodeJS.ProcessEnv = value === undefined ? {} : { YOKE_FAILPOINT: value };
    return { failpoint: readFailpoint(env, (message) => warnings.push(message)), warnings };
  }

  it('is null and silent when unset or empty', () => {
    expect(read(undefined)).toEqual({ failpoint: null, warnings: [] });
    expect(read('')).toEqual({ failpoint: null, warnings: [] });
  });

  it.each([
    ['crash-after:1', { kind: 'crash-after', seq: 1 }],
    ['crash-after:42', { kind: 'crash-after', seq: 42 }],
    ['torn-at:7', { kind: 'torn-at', seq: 7 }],
    ['torn-at:1000', { kind: 'torn-at', seq: 1000 }],
  ])('parses %s', (value, expected) => {
    expect(read(value)).toEqual({ failpoint: expected, warnings: [] });
  });

  it.each(['crash-after:0', 'crash-after:', 'crash-after:x', 'crash-after:-3', 'torn-at:07', 'torn-at 3', 'boom:3', 'crash-after:3 ', ' torn-at:3', 'CRASH-AFTER:3'])(
    'ignores the malformed value %j with one warning naming it',
    (value) => {
      const { failpoint, warnings } = read(value);
      expect(failpoint).toBeNull();
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain(`YOKE_FAILPOINT=${value}`);
      expect(warnings[0]).toContain('crash-after:<seq>');
    },
  );
});

describe('Journal with YOKE_FAILPOINT (a real child process)', () => {
  const journalModule = join(repoRoot, 'store', 'journal', 'file', 'journal.ts');

  /** Open a journal in a child Node with `failpoint`, append records 1..count, close; report how it ended. */
  function appendInChild(path: string, failpoint: string, count: number): ReturnType<typeof spawnSync> {
    const script = `
      import { Journal } from ${JSON.stringify(journalModule)};
      const journal = Journal.open(${JSON.stringify(path)}, (m) => process.stderr.write(m + '\\n'));
      for (let n = 1; n <= ${count}; n += 1) {
        journal.append({ type: 'run.resumed', run: 'RUN-A', machine: 'loop', mv: 1, payload: { pid: n } });
      }
      journal.close();
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

  it('torn-at:N dies leaving N-1 records and a torn line N, which the next open repairs', () => {
    const path = tempJournalPath();
    const child = appendInChild(path, 'torn-at:3', 4);
    expect(child.signal, String(child.stderr)).toBe('SIGKILL');
    const contents = readJournalFile(path);
    expect(contents.records.map((r) => r.seq)).toEqual([1, 2]);
    expect(contents.torn?.line).toBe(3);

    const { journal, warnings } = openJournal(path);
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
