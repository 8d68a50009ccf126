// Golden journals (README.md): real runs recorded by earlier yokes must still replay and verify with
// today's machines, through the built CLI exactly as a user runs it. The tampered copy (params
// changed, chain recomputed) passes every structural check and must fail --verify.
import { copyFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { readJournalFile } from '../../store/journal/file/journal-file.js';
import { findRun } from '../../store/fold/journal-runs.js';
import { replayRun } from '../../store/projections/replay-steps.js';
import { expectRefusal } from '../support/cli-expect.js';
import { editRecord, rewriteJournal } from '../support/journal-edit.js';
import { runYoke } from '../support/workspace.js';

const here = dirname(fileURLToPath(import.meta.url));
const goldens = readdirSync(here).filter((name) => name.endsWith('.jsonl')).sort();
const tampered = join(here, 'tampered', 'loop-done-guard-command.jsonl');
const scratch = mkdtempSync(join(tmpdir(), 'yoke-golden-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** `yoke <args>` from a folder that is no git project: --journal needs none. */
const yoke = (args: string[]) => runYoke({ path: scratch }, args);

function events(file: string): string[] {
  const { records } = readJournalFile(join(here, file));
  return replayRun(records, findRun(records)).steps.map((step) => step.event);
}

describe('golden journals', () => {
  it('there is one per recorded scenario', () => {
    expect(goldens).toEqual(['loop-crash-resume.jsonl', 'loop-done.jsonl', 'loop-max-iterations.jsonl', 'loop-sigint-resume.jsonl']);
  });

  it.each(goldens)('%s verifies with today\'s machines (yoke replay --verify --all)', async (file) => {
    const result = await yoke(['replay', '--verify', '--all', '--journal', join(here, file)]);
    expect(result.exitCode, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toMatch(/: verified: \d+ effect requests and \d+ events re-derived by today's machine match the journal, and so does how it ended\./);
  });

  it.each(goldens)('%s replays as a timeline and as JSON', async (file) => {
    const text = await yoke(['replay', '--journal', join(here, file)]);
    expect(text.exitCode, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/^outcome: finished in /m);
    const json = await yoke(['replay', '--json', '--journal', join(here, file)]);
    const lines = json.stdout.split('\n').map((line) => JSON.parse(line) as { kind: string });
    expect(lines.at(-1)?.kind).toBe('outcome');
  });

  it('each golden journal covers what its name says', () => {
    expect(events('loop-done.jsonl').filter((e) => e === 'AGENT_EXITED')).toHaveLength(3);
    const max = readJournalFile(join(here, 'loop-max-iterations.jsonl')).records;
    const maxRun = replayRun(max, findRun(max));
    expect(maxRun.outcome).toMatchObject({ state: 'exhausted', exitCode: 1, reason: 'max-iterations' });
    expect(maxRun.steps.some((s) => s.event === 'BOUNDARY_SCANNED' && s.to === 'reporting')).toBe(true);
    expect(maxRun.steps.some((s) => s.effect?.outcome.startsWith('FAIL'))).toBe(true);
    expect(events('loop-sigint-resume.jsonl')).toEqual(expect.arrayContaining(['run.interrupted', 'run.resumed', 'AGENT_INTERRUPTED']));
    expect(events('loop-crash-resume.jsonl')).toEqual(expect.arrayContaining(['run.resumed', 'AGENT_INTERRUPTED', 'journal.repaired']));
  });
});

describe('the tampered golden journal', () => {
  it('is structurally sound: the chain and every schema check pass', () => {
    expect(() => readJournalFile(tampered)).not.toThrow();
  });

  it('fails --verify with exit 1, naming the seq and both sides', async () => {
    const result = await yoke(['replay', '--verify', '--journal', tampered]);
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toMatch(/DIVERGED at seq 18 \(effect\.started, effect \w+\/17\/0\)/);
    expect(result.stdout).toMatch(/first difference at params\.command/);
    expect(result.stdout).toMatch(/journal: +"true"/);
    expect(result.stdout).toMatch(/today's machine: +"test -f src\/app\.txt"/);
  });

  it('--verify --json reports the divergence as data', async () => {
    const result = await yoke(['replay', '--verify', '--json', '--journal', tampered]);
    expect(result.exitCode).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({ status: 'diverged', divergence: { seq: 18, path: 'params.command', journal: 'true', machine: 'test -f src/app.txt' } });
  });
});

describe('a journal verify cannot read', () => {
  it('a broken chain is refused with exit 3, naming the line', async () => {
    const copy = join(scratch, 'broken.jsonl');
    copyFileSync(join(here, 'loop-done.jsonl'), copy);
    editRecord(copy, 10, (record) => {
      record.ts = '2000-01-01T00:00:00.000Z';
    });
    expectRefusal(await yoke(['replay', '--verify', '--journal', copy]), 3, /broken\.jsonl:11: .*chain is broken/);
  });

  it('a machine version this yoke lacks is refused with exit 3 and a clear message', async () => {
    const copy = join(scratch, 'future.jsonl');
    copyFileSync(join(here, 'loop-done.jsonl'), copy);
    rewriteJournal(copy, (record) => {
      if (record.run !== null) record.mv = 99;
    });
    const result = await yoke(['replay', '--verify', '--journal', copy]);
    expect(result.exitCode).toBe(3);
    expect(result.stdout).toMatch(/cannot verify: run \w+ was recorded with loop machine v99, but this yoke can fold v1 only/);
  });
});
