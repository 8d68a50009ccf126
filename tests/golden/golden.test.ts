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
const tampered = join(here, 'tampered', 'loop-done-guard-command.v0.1.0.jsonl');
const scratch = mkdtempSync(join(tmpdir(), 'yoke-golden-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** `yoke <args>` from a folder that is no git project: --journal needs none. */
const yoke = (args: string[]) => runYoke({ path: scratch }, args);

function replayed(file: string): ReturnType<typeof replayRun> {
  const { records } = readJournalFile(join(here, file));
  return replayRun(records, findRun(records));
}

function events(file: string): string[] {
  return replayed(file).steps.map((step) => step.event);
}

describe('golden journals', () => {
  it('there is one per recorded scenario, for every lifecycle, named with the yoke version that wrote it', () => {
    expect(goldens).toEqual([
      'brute-bailout.v0.1.0.jsonl', 'brute-done.v0.1.0.jsonl', 'goal-complete.v0.1.0.jsonl', 'goal-economic-speed.v0.1.0.jsonl', 'goal-escalate.v0.1.0.jsonl', 'goal-no-progress.v0.1.0.jsonl',
      'loop-crash-resume.v0.1.0.jsonl', 'loop-done.v0.1.0.jsonl', 'loop-max-iterations.v0.1.0.jsonl', 'loop-sigint-resume.v0.1.0.jsonl',
      'parallel-escalate.v0.1.0.jsonl', 'saga-done.v0.1.0.jsonl', 'stories-done.v0.1.0.jsonl', 'stories-escalate.v0.1.0.jsonl',
    ]);
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
    expect(events('loop-done.v0.1.0.jsonl').filter((e) => e === 'AGENT_EXITED')).toHaveLength(3);
    const maxRun = replayed('loop-max-iterations.v0.1.0.jsonl');
    expect(maxRun.outcome).toMatchObject({ state: 'exhausted', exitCode: 1, reason: 'max-iterations' });
    expect(maxRun.steps.some((s) => s.event === 'BOUNDARY_SCANNED' && s.to === 'reporting')).toBe(true);
    expect(maxRun.steps.some((s) => s.effect?.outcome.startsWith('FAIL'))).toBe(true);
    expect(events('loop-sigint-resume.v0.1.0.jsonl')).toEqual(expect.arrayContaining(['run.interrupted', 'run.resumed', 'AGENT_INTERRUPTED']));
    expect(events('loop-crash-resume.v0.1.0.jsonl')).toEqual(expect.arrayContaining(['run.resumed', 'AGENT_INTERRUPTED', 'journal.repaired']));
  });

  it('the brute, saga and goal journals cover their lifecycle\'s decisions', () => {
    const brute = replayed('brute-done.v0.1.0.jsonl');
    expect(brute.outcome).toMatchObject({ exitCode: 0, reason: 'judge-pass' });
    // a cadence judgment (judge #2), a counted FAIL with the notes reset (judge #3), then PASS (judge #4)
    expect(brute.steps.filter((s) => s.effect?.label.startsWith('agent.spawn judge')).map((s) => s.effect?.label)).toEqual(['agent.spawn judge #2', 'agent.spawn judge #3', 'agent.spawn judge #4']);
    expect(brute.steps.some((s) => s.event === 'NOTES_RESET')).toBe(true);
    // one worker call reported no cost: the run's `price` directive priced it
    expect(brute.outcome.unknownCost).toBe(3);
    expect(replayed('brute-bailout.v0.1.0.jsonl').outcome).toMatchObject({ state: 'bailedOut', exitCode: 1, reason: 'judge-bailout' });
    const saga = replayed('saga-done.v0.1.0.jsonl');
    expect(saga.outcome).toMatchObject({ state: 'sagaDone', exitCode: 0, reason: 'saga-done' });
    expect(saga.steps.filter((s) => s.effect?.label === 'agent.spawn scoper #0')).toHaveLength(4);
    const goal = replayed('goal-complete.v0.1.0.jsonl');
    expect(goal.outcome).toMatchObject({ exitCode: 0, reason: 'goal-complete', agentCalls: 3 });
    expect(goal.steps.filter((s) => s.event === 'CLOCK_READ')).toHaveLength(3);
    expect(replayed('goal-no-progress.v0.1.0.jsonl').outcome).toMatchObject({ exitCode: 1, reason: 'no-progress' });
  });

  it('the stories journal covers its lifecycle\'s decisions: a failed check, a judge FAIL, one story.pass per story, the worker\'s prd.yaml edit restored', () => {
    const stories = replayed('stories-done.v0.1.0.jsonl');
    expect(stories.outcome).toMatchObject({ state: 'done', exitCode: 0, reason: 'stories-done' });
    const passes = stories.steps.filter((s) => s.event === 'STORY_PASSED');
    expect(passes).toHaveLength(3);
    expect(stories.steps.filter((s) => s.effect?.label === 'check.run accept S1#1').map((s) => s.effect?.outcome.startsWith('FAIL'))).toEqual([true, false]);
    expect(stories.steps.filter((s) => s.event === 'NOTES_RESET')).toHaveLength(1);
    expect(stories.steps.filter((s) => s.effect?.label.startsWith('agent.spawn judge'))).toHaveLength(4);
    expect(stories.steps.some((s) => s.effect?.label === 'spec.restore' && s.effect.outcome.startsWith('1 restored'))).toBe(true);
    const { records } = readJournalFile(join(here, 'stories-done.v0.1.0.jsonl'));
    const messages = records.flatMap((r) => (r.type === 'effect.started' && r.payload.kind === 'story.pass' ? [(r.payload.params as { message: string }).message] : []));
    expect(messages).toEqual(['feat(S1): Parser', 'feat(S2): Printer', 'feat(S3): Docs']);
  });

  it('the routing journals, recorded before routing followed sequences, hold the decisions today\'s rules no longer make', () => {
    const workers = (file: string) => readJournalFile(join(here, file)).records.flatMap((r) => {
      const params = r.type === 'effect.started' && r.payload.kind === 'agent.spawn' ? r.payload.params as { role: string; story?: string; profile?: string; model: string | null } : null;
      return params === null ? [] : [`${params.role} ${params.story ?? '-'} ${params.profile ?? '-'} ${params.model ?? '-'}`];
    });
    // the idle timeout escalated, sideways to the second light profile, and the `agent` profile's model leaked
    expect(workers('goal-escalate.v0.1.0.jsonl')).toEqual(['worker - fast haiku', 'worker - spare haiku', 'worker - deep haiku', 'worker - deep haiku']);
    // S2 started on S1's rung; the judge profile without a model ran with the worker's
    expect(workers('stories-escalate.v0.1.0.jsonl')).toEqual(['worker S1 fast haiku', 'worker S1 wise haiku', 'worker S1 deep haiku', 'judge S1 - haiku', 'worker S2 deep haiku', 'judge S2 - haiku']);
    // lanes before laneRouting: S1's lane failed its check and went again on the bottom rung
    expect(workers('parallel-escalate.v0.1.0.jsonl').sort()).toEqual(['worker S1 fast haiku', 'worker S1 fast haiku', 'worker S2 fast haiku']);
    // speed chose a profile whose cost is unknown; a profile without samples cost $0
    const started = readJournalFile(join(here, 'goal-economic-speed.v0.1.0.jsonl')).records.filter((r) => r.type === 'run.started').at(-1);
    const routing = (started?.payload.input as { routing?: { start: string; evidence: Array<{ profile: string; costUsd: number | null; eligible: boolean }> } }).routing;
    expect(routing?.start).toBe('quick');
    expect(routing?.evidence.map((e) => [e.profile, e.costUsd === null ? null : e.costUsd > 0 ? '>0' : 0, e.eligible])).toEqual([['slow', '>0', true], ['quick', null, true], ['idle', 0, false]]);
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

describe('the tampered brute, saga, goal and stories journals', () => {
  it.each([
    ['brute-done-judge-prompt', 46, 'params.prompt'],
    ['saga-done-log', 59, 'params.content'],
    ['goal-complete-accept', 21, 'params.command'],
    ['stories-done-subject', 65, 'params.message'],
  ])('%s passes every structural check and fails --verify at seq %i (%s)', async (name, seq, path) => {
    const file = join(here, 'tampered', `${name}.v0.1.0.jsonl`);
    expect(() => readJournalFile(file)).not.toThrow();
    const result = await yoke(['replay', '--verify', '--json', '--journal', file]);
    expect(result.exitCode).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({ status: 'diverged', divergence: { seq, path } });
  });
});

describe('a journal verify cannot read', () => {
  it('a broken chain is refused with exit 3, naming the line', async () => {
    const copy = join(scratch, 'broken.jsonl');
    copyFileSync(join(here, 'loop-done.v0.1.0.jsonl'), copy);
    editRecord(copy, 10, (record) => {
      record.ts = '2000-01-01T00:00:00.000Z';
    });
    expectRefusal(await yoke(['replay', '--verify', '--journal', copy]), 3, /broken\.jsonl:11: .*chain is broken/);
  });

  it('a machine version this yoke lacks is refused with exit 3 and a clear message', async () => {
    const copy = join(scratch, 'future.jsonl');
    copyFileSync(join(here, 'loop-done.v0.1.0.jsonl'), copy);
    rewriteJournal(copy, (record) => {
      if (record.run !== null) record.mv = 99;
    });
    const result = await yoke(['replay', '--verify', '--journal', copy]);
    expect(result.exitCode).toBe(3);
    expect(result.stdout).toMatch(/cannot verify: run \w+ was recorded with loop machine v99, but this yoke can fold v1 only/);
  });
});
