// An unfinished run recorded by an older yoke (unfinished/, README.md) is resumed by today's yoke to
// its end, and the whole journal, old records and new, then verifies. The recording is the yoke
// before the journal store seam: its torn-tail repair names a line, not a byte offset.
import { copyFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { readJournalFile } from '../../store/journal/file/journal-file.js';
import { runYoke } from '../support/workspace.js';

const here = join(dirname(fileURLToPath(import.meta.url)), 'unfinished');
const fixtures = readdirSync(here).filter((name) => name.endsWith('.jsonl')).map((name) => name.slice(0, -'.jsonl'.length)).sort();
const scratch = mkdtempSync(join(tmpdir(), 'yoke-unfinished-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The workspace as the old yoke left it: its tarball unpacked, its journal put back in place. */
async function unpack(name: string): Promise<string> {
  const project = mkdtempSync(join(scratch, `${name}-`));
  await execa('tar', ['-xzf', join(here, `${name}.tar.gz`), '-C', project]);
  copyFileSync(join(here, `${name}.jsonl`), join(project, '.loop', '.journal', 'journal.jsonl'));
  return project;
}

describe('an unfinished run recorded before the journal store seam', () => {
  it('there is one, and it is unfinished, with a torn-tail repair that names a line', () => {
    expect(fixtures).toEqual(['loop-torn-sigint.v0.1.0']);
    const { records } = readJournalFile(join(here, 'loop-torn-sigint.v0.1.0.jsonl'));
    expect(records.find((record) => record.type === 'journal.repaired')?.payload).toEqual({ line: 12, droppedBytes: 176 });
    expect(records.at(-1)?.type).toBe('run.interrupted');
    expect(records.some((record) => record.type === 'run.finished')).toBe(false);
  });

  it('loop-torn-sigint.v0.1.0: today\'s yoke resumes it to DONE, calling the cut-short worker again, and the journal verifies', async () => {
    const project = await unpack('loop-torn-sigint.v0.1.0');
    const run = await runYoke({ path: project }, ['run']);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/resuming run \w+ at iteration 2 \(state working\)/);
    expect(run.stderr).toMatch(/done after 2 iteration\(s\): notes say DONE and every guard passed/);
    const { records } = readJournalFile(join(project, '.loop', '.journal', 'journal.jsonl'));
    const events = records.flatMap((record) => (record.type === 'event' ? [record.payload.event.type] : [record.type]));
    expect(events.slice(33)).toEqual(expect.arrayContaining(['run.resumed', 'effect.interrupted', 'AGENT_INTERRUPTED', 'AGENT_EXITED', 'run.finished']));
    expect(records.at(-1)).toMatchObject({ type: 'run.finished', payload: { exitCode: 0 } });
    // iteration 2's worker ran to the end this time: its work is in the last commit
    expect((await execa('git', ['log', '--format=%s'], { cwd: project })).stdout.split('\n')).toEqual(['yoke: loop done after iteration 2', 'yoke: iteration 1', 'the project']);
    const verify = await runYoke({ path: project }, ['replay', '--verify', '--all']);
    expect(verify.exitCode, verify.stdout + verify.stderr).toBe(0);
    expect(verify.stdout).toMatch(/: verified: \d+ effect requests and \d+ events re-derived by today's machine match the journal, and so does how it ended\./);
  });
});
