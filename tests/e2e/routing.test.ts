// Routing end to end (DESIGN §15): profiles that report usage through $YOKE_USAGE_FILE (or tokens
// priced by `price`), real runs filling the windows, then `routing economic` choosing by cost per
// accepted sequence; `routing escalate` climbing one tier per gate failure of a sequence (never
// after an idle timeout), each profile with its own model, per story in stories mode.
import { chmod, writeFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { rewriteJournal } from '../support/journal-edit.js';
import { makeParallelWorkspace } from '../support/parallel-workspace.js';
import { journalPath, readJournal } from '../support/journal-records.js';
import { makeWorkspace, runYoke, type Workspace } from '../support/workspace.js';

const workspaces: Workspace[] = [];
afterEach(async () => {
  for (const ws of workspaces.splice(0)) await ws.cleanup();
});

/**
 * A `cmd` agent: counts its calls in the side folder, reports `usage` (JSON) through
 * $YOKE_USAGE_FILE, and ships done.txt on the calls `passes` says (else removes it, so the goal's
 * acceptance fails). `before` runs first (e.g. going quiet past the idle timeout).
 */
async function agentScript(ws: Workspace, name: string, usage: string, passes: string, before = ''): Promise<string> {
  const path = ws.side(`${name}.sh`);
  await writeFile(path, [
    '#!/bin/sh',
    `n=$(( $(cat "${ws.side(`${name}.count`)}" 2>/dev/null || echo 0) + 1 ))`,
    `echo "$n" > "${ws.side(`${name}.count`)}"`,
    before,
    `printf '%s' '${usage}' > "$YOKE_USAGE_FILE"`,
    `if ${passes}; then echo ok > done.txt; else rm -f done.txt; fi`,
    'printf "STATUS: DONE\\n" > .loop/notes.md',
  ].join('\n'));
  await chmod(path, 0o755);
  return path;
}

/** Usage with a reported cost. */
const costing = (usd: number): string => `{"input_tokens": 100, "output_tokens": 10, "cost_usd": ${usd}}`;

async function goalWorkspace(): Promise<Workspace> {
  const ws = await makeWorkspace(() => ({
    '.loop/yoke.conf': 'mode goal\nagent claude\n',
    '.loop/goal.md': '# Ship done.txt\n',
    '.loop/protocol.md': '# Protocol\n',
    '.loop/notes.md': 'STATUS: IN_PROGRESS\n',
    '.loop/.gitignore': '.journal/\n.stash/\n',
  }));
  workspaces.push(ws);
  return ws;
}

async function conf(ws: Workspace, lines: string[]): Promise<void> {
  await ws.write('.loop/yoke.conf', `${['mode goal', 'accept shipped test -f done.txt', ...lines].join('\n')}\n`);
}

interface SpawnParams { role: string; profile?: string; model: string | null; story?: string; routeReason?: string }
interface SpawnResult { classification?: string }

/** The worker calls as journaled: their params and how each ended. */
async function workerCalls(ws: Workspace): Promise<Array<SpawnParams & { classification?: string }>> {
  const records = await readJournal(ws);
  const results = new Map(records.filter((r) => r.type === 'effect.completed').map((r) => {
    const payload = r.payload as { key: string; result: SpawnResult };
    return [payload.key, payload.result];
  }));
  return records
    .filter((r) => r.type === 'effect.started' && (r.payload as { kind: string }).kind === 'agent.spawn')
    .map((r) => r.payload as { key: string; params: SpawnParams })
    .filter(({ params }) => params.role === 'worker')
    .map(({ key, params }) => ({ ...params, classification: results.get(key)?.classification }));
}

async function workerProfiles(ws: Workspace): Promise<(string | undefined)[]> {
  return (await workerCalls(ws)).map((call) => call.profile);
}

interface Evidence { profile: string; samples: number; accepted: number; costUsd: number | null; costPerAccepted: number | null; eligible: boolean; why: string }
interface PendingLane { story: string; profile: string | null; reason: string | null }
interface Report { next: string | null; newRun: string | null; unfinished: { run: string; profile: string | null; reason: string | null; lanes?: PendingLane[] } | null; ladder: { profile: string; tier: string }[]; decision: { baseline: string; reason: string; evidence: Evidence[] } | null }

async function routingReport(ws: Workspace): Promise<Report> {
  const explained = await runYoke(ws, ['routing', '--json']);
  expect(explained.exitCode, explained.stderr).toBe(0);
  return JSON.parse(explained.stdout) as Report;
}

describe('routing', () => {
  it('economic objective cost: from real runs, the dear profile that always passes (its tokens priced by `price`) is cheaper per accepted sequence than the cheap one that passes 1 of 3; a forged decision fails verify', async () => {
    const ws = await goalWorkspace();
    const cheap = await agentScript(ws, 'cheap', costing(0.01), '[ $((n % 3)) -eq 0 ]');
    // tokens only: `price dear-model` makes its cost (100 × 190 + 10 × 100) / 1e6 = $0.02 a call
    const dear = await agentScript(ws, 'dear', '{"input_tokens": 100, "output_tokens": 10, "model": "dear-model"}', 'true');
    const profiles = [`profile cheap tier light cmd sh ${cheap}`, `profile dear tier strong cmd sh ${dear}`, 'price dear-model 190 100'];
    await conf(ws, ['max-iterations 1', ...profiles, 'agent cheap']);
    const exits: number[] = [];
    for (let i = 0; i < 10; i += 1) exits.push((await runYoke(ws, ['run', '--quiet'])).exitCode ?? -1);
    expect(exits).toEqual([1, 1, 0, 1, 1, 0, 1, 1, 0, 1]);
    await conf(ws, ['max-iterations 1', ...profiles, 'agent dear']);
    for (let i = 0; i < 10; i += 1) expect((await runYoke(ws, ['run', '--quiet'])).exitCode).toBe(0);

    await conf(ws, ['max-iterations 1', ...profiles, 'agent cheap', 'routing economic objective cost min-samples 10']);
    const report = await routingReport(ws);
    expect(report.next).toBe('dear');
    expect(report.decision?.baseline).toBe('cheap');
    const byName = Object.fromEntries((report.decision?.evidence ?? []).map((e) => [e.profile, e]));
    expect(byName.cheap).toMatchObject({ samples: 10, accepted: 3, eligible: true });
    expect(byName.cheap?.costPerAccepted).toBeCloseTo(0.1 / 3, 6);
    expect(byName.dear).toMatchObject({ samples: 10, accepted: 10, eligible: true });
    expect(byName.dear?.costPerAccepted).toBeCloseTo(0.02, 6);
    expect((await runYoke(ws, ['routing'])).stdout).toMatch(/the next run starts with dear[\s\S]*dear beats the baseline cheap on cost/);

    const run = await runYoke(ws, ['run', '--quiet']);
    expect(run.exitCode, run.stderr).toBe(0);
    const records = await readJournal(ws);
    const last = records.filter((r) => r.type === 'run.started').at(-1);
    expect(((last?.payload as { input?: { routing?: { start: string } } } | undefined)?.input)?.routing?.start).toBe('dear');
    expect((await workerProfiles(ws)).at(-1)).toBe('dear');
    const verify = await runYoke(ws, ['replay', '--verify', '--all']);
    expect(verify.exitCode, verify.stdout).toBe(0);

    // the journaled decision says cheap, and the chain is made whole again: only re-deriving it finds the forgery
    rewriteJournal(journalPath(ws.path), (record) => {
      if (record.seq !== last?.seq) return;
      ((record.payload as { input: { routing: { start: string } } }).input.routing).start = 'cheap';
    });
    const forged = await runYoke(ws, ['replay', '--verify', '--all']);
    expect(forged.exitCode, forged.stdout).toBe(1);
    expect(forged.stdout).toMatch(new RegExp(`DIVERGED at seq ${last?.seq ?? '?'} \\(run\\.started\\)[\\s\\S]*routing decision[\\s\\S]*payload\\.input\\.routing`));
  }, 600_000);

  it('economic with too few sequences keeps the baseline and says why; a profile without samples has an unknown cost, not $0', async () => {
    const ws = await goalWorkspace();
    const cheap = await agentScript(ws, 'cheap', costing(0.01), 'true');
    const dear = await agentScript(ws, 'dear', costing(0.02), 'true');
    await conf(ws, [`profile cheap tier light cmd sh ${cheap}`, `profile dear cmd sh ${dear}`, 'agent cheap', 'routing economic min-samples 10']);
    expect((await runYoke(ws, ['run', '--quiet'])).exitCode).toBe(0);
    const explained = await runYoke(ws, ['routing']);
    expect(explained.stdout).toMatch(/starts with cheap[\s\S]*insufficient evidence: the baseline cheap has 1 of 10 complete sequences/);
    const evidence = (await routingReport(ws)).decision?.evidence ?? [];
    expect(evidence.find((e) => e.profile === 'cheap')).toMatchObject({ samples: 1, costUsd: 0.01 });
    expect(evidence.find((e) => e.profile === 'dear')).toMatchObject({ samples: 0, costUsd: null, costPerAccepted: null });
  }, 120_000);

  it('escalate: an idle timeout does not escalate, a gate failure climbs one tier (never sideways) and stays; each profile runs with its own model, the reason is journaled, and `yoke routing` shows a paused run\'s next rung', async () => {
    const ws = await goalWorkspace();
    // fast goes quiet past the idle timeout on its first call, then fails acceptance; deep fails once
    // (another way, or the third identical failure would block the goal as no-progress), then passes
    const light = await agentScript(ws, 'light', costing(0.01), 'false', 'if [ "$n" -eq 1 ]; then sleep 6; fi');
    const strong = await agentScript(ws, 'strong', costing(0.05), '[ "$n" -ge 2 ]', 'if [ "$n" -eq 1 ]; then touch junk.txt; else rm -f junk.txt; fi');
    await conf(ws, [
      'accept tidy test ! -f junk.txt', 'max-iterations 6', 'idle-timeout 2s', 'budget attempts 2',
      `profile deep tier strong cmd sh ${strong}`, `profile fast tier light model haiku cmd sh ${light}`, `profile spare tier light model mini cmd sh ${light}`,
      'agent fast', 'routing escalate',
    ]);
    const check = await runYoke(ws, ['config', 'check']);
    expect(check.stderr).toMatch(/yoke\.conf:\d+:1: .*`routing escalate` never runs the profile `spare`: `fast` \(line \d+\) is the light rung/);
    expect(await routingReport(ws)).toMatchObject({ next: 'fast', unfinished: null, ladder: [{ profile: 'fast', tier: 'light' }, { profile: 'deep', tier: 'strong' }] });

    // attempts 2 holds the run after fast's two attempts: the next one is deep's, and `yoke routing` says so
    const held = await runYoke(ws, ['run', '--quiet']);
    expect(held.exitCode, held.stderr).toBe(1);
    const paused = await routingReport(ws);
    expect(paused).toMatchObject({ next: 'deep', newRun: 'fast', unfinished: { profile: 'deep', reason: expect.stringMatching(/up to deep \(strong\), rung 2 of 2, after attempt 2 failed accept shipped/) as unknown } });
    expect((await runYoke(ws, ['budget', '--attempts', '10'])).exitCode).toBe(0);
    const run = await runYoke(ws, ['run', '--quiet']);
    expect(run.exitCode, run.stderr).toBe(0);

    const calls = await workerCalls(ws);
    expect(calls.map((call) => [call.profile, call.model, call.classification])).toEqual([
      ['fast', 'haiku', 'idle-timeout'], ['fast', 'haiku', 'ok'], ['deep', null, 'ok'], ['deep', null, 'ok'],
    ]);
    expect(calls.map((call) => call.routeReason)).toEqual([
      'escalate: fast (light) is the first rung of 2',
      'escalate: fast (light) is the first rung of 2',
      'escalate: up to deep (strong), rung 2 of 2, after attempt 2 failed accept shipped',
      'escalate: deep (strong) is the top rung, kept after attempt 3 failed accept shipped, accept tidy',
    ]);
    expect((await runYoke(ws, ['replay', '--verify'])).exitCode).toBe(0);
  }, 120_000);

  it('escalate in stories mode: each story is its own sequence, starting at the bottom again, and the ledger counts one sequence per story; config check resolves judge-agent naming a profile and refuses an unknown one', async () => {
    const ws = await makeWorkspace({
      '.loop/yoke.conf': 'mode stories\nagent claude\n',
      '.loop/prd.yaml': 'stories:\n  - id: S1\n    title: One\n    acceptance:\n      - text: one\n        check: test -f out-S1.txt\n  - id: S2\n    title: Two\n    acceptance:\n      - text: two\n        check: test -f out-S2.txt\n',
      '.loop/protocol.md': '# Protocol\n',
      '.loop/notes.md': 'STATUS: IN_PROGRESS\n',
      '.loop/.gitignore': '.journal/\n.stash/\n',
    });
    workspaces.push(ws);
    // the worker skips S1's file on its first call (S1's check fails), then does each story
    await writeFile(ws.side('agent.sh'), [
      '#!/bin/sh',
      'story=$(grep -o \'^### [A-Za-z0-9_-]*:\' | head -1 | sed \'s/^### //; s/:$//\')',
      `n=$(( $(cat "${ws.side('calls')}" 2>/dev/null | wc -l) + 1 ))`,
      `echo "$story" >> "${ws.side('calls')}"`,
      'if [ "$n" -ne 1 ]; then echo ok > "out-$story.txt"; fi',
      'printf \'{"input_tokens": 1, "output_tokens": 1, "cost_usd": 0.01}\' > "$YOKE_USAGE_FILE"',
      'printf "STATUS: DONE\\n" > .loop/notes.md',
    ].join('\n'));
    const agent = ws.side('agent.sh');
    const profiles = [`profile fast tier light cmd sh ${agent}`, `profile deep tier strong cmd sh ${agent}`];
    // judge-agent may name a profile; a name no profile has is refused with its line
    await ws.write('.loop/yoke.conf', `${['mode stories', ...profiles, 'agent fast', 'review on', 'judge-agent deap'].join('\n')}\n`);
    const refused = await runYoke(ws, ['config', 'check']);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toMatch(/\.loop\/yoke\.conf:6:13: error: `deap` is not a known agent or profile/);
    await ws.write('.loop/yoke.conf', `${['mode stories', ...profiles, 'agent fast', 'review on', 'judge-agent deep'].join('\n')}\n`);
    const checked = await runYoke(ws, ['config', 'check', '--json']);
    expect(checked.exitCode, checked.stderr).toBe(0);
    expect((JSON.parse(checked.stdout) as { config: unknown }).config).toMatchObject({ judgeProfile: 'deep', judgeAgent: { kind: 'cmd', command: `sh ${agent}` }, agentProfile: 'fast' });
    await ws.write('.loop/yoke.conf', `${['mode stories', 'max-iterations 5', ...profiles, 'agent fast', 'routing escalate'].join('\n')}\n`);
    const run = await runYoke(ws, ['run', '--quiet']);
    expect(run.exitCode, run.stderr).toBe(0);
    expect((await workerCalls(ws)).map((call) => `${call.profile ?? '?'} ${call.story ?? '?'}`)).toEqual(['fast S1', 'deep S1', 'fast S2']);

    // the same journal as evidence: S1 and S2 are two sequences, both started by fast and accepted
    await ws.write('.loop/yoke.conf', `${['mode stories', 'max-iterations 5', ...profiles, 'agent fast', 'routing economic min-samples 10'].join('\n')}\n`);
    const evidence = (await routingReport(ws)).decision?.evidence ?? [];
    expect(evidence.find((e) => e.profile === 'fast')).toMatchObject({ samples: 2, accepted: 2, why: '2 of 10 complete sequences' });
    expect(evidence.find((e) => e.profile === 'fast')?.costUsd).toBeCloseTo(0.03, 6);
    expect((await runYoke(ws, ['replay', '--verify'])).exitCode).toBe(0);
  }, 120_000);

  it('escalate in two lanes on different rungs: `yoke routing`\'s headline says the lanes go on each on its own profile, not the first lane\'s alone', async () => {
    const ws = await makeParallelWorkspace(['S1', 'S2']);
    workspaces.push(ws);
    // an agent that never leaves the out file: every attempt fails its story's check
    await writeFile(ws.side('failing.sh'), 'printf "STATUS: DONE\\n" > .loop/notes.md\n');
    const agent = ws.side('failing.sh');
    await ws.write('.loop/yoke.conf', `${['mode stories', 'parallel 2', 'max-iterations 6', 'guard tree test -f .loop/prd.yaml',
      `profile fast tier light model fast-m cmd sh ${agent}`, `profile deep tier strong model deep-m cmd sh ${agent}`, 'agent fast',
      // one attempt: the lane that gets it fails on fast and climbs to deep, the other still waits on fast
      'routing escalate', 'budget attempts 1'].join('\n')}\n`);
    await ws.git(['commit', '-qam', 'escalate']);
    const held = await runYoke(ws, ['run', '--quiet'], { timeoutMs: 150_000 });
    expect(held.exitCode, held.stderr).toBe(1);
    const lanes = (await routingReport(ws)).unfinished?.lanes ?? [];
    expect(lanes.map((lane) => lane.profile).sort(), JSON.stringify(lanes)).toEqual(['deep', 'fast']);
    const shown = (await runYoke(ws, ['routing'])).stdout;
    expect(shown).toMatch(/^the unfinished run \w+ continues in 2 lanes, each on its own profile \(`yoke run` resumes it; `--fresh` starts a new run as below\):$/m);
    expect(shown).not.toMatch(/continues with the profile/);
    for (const lane of lanes) expect(shown).toMatch(new RegExp(`^ {2}lane ${lane.story}: the profile ${lane.profile ?? ''}`, 'm'));
  }, 200_000);

  it('escalate in parallel lanes: the story whose check failed climbs in its own lane while the other stays on the bottom rung; the lane call journals its profile, model and reason, `yoke routing` shows the held lane\'s next rung, and the ledger counts each story', async () => {
    const ws = await makeParallelWorkspace(['S1', 'S2']);
    workspaces.push(ws);
    // fast leaves S1's out file out (its check fails); deep, and fast on S2, do the work
    await writeFile(ws.side('routed.sh'), [
      '#!/bin/sh',
      'story=$(grep -o \'^### [A-Za-z0-9_-]*:\' | head -1 | sed \'s/^### //; s/:$//\')',
      `echo "$story $PROFILE" >> "${ws.side('calls')}"`,
      'if [ "$PROFILE" != fast ] || [ "$story" != S1 ]; then echo "$PROFILE" > "out-$story.txt"; fi',
      'printf \'{"input_tokens": 1, "output_tokens": 1, "cost_usd": 0.01}\' > "$YOKE_USAGE_FILE"',
      'printf "STATUS: DONE\\nDecision: %s by %s\\n" "$story" "$PROFILE" > .loop/notes.md',
    ].join('\n'));
    const agent = ws.side('routed.sh');
    const profiles = [`profile fast tier light model fast-m cmd PROFILE=fast sh ${agent}`, `profile deep tier strong model deep-m cmd PROFILE=deep sh ${agent}`, 'agent fast'];
    const conf = (lines: string[]) => ws.write('.loop/yoke.conf', `${['mode stories', 'parallel 2', 'max-iterations 6', 'guard tree test -f .loop/prd.yaml', ...profiles, ...lines].join('\n')}\n`);
    // two attempts: both lanes' first calls; S1's second waits in its lane for the budget
    await conf(['routing escalate', 'budget attempts 2']);
    await ws.git(['commit', '-qam', 'escalate']);
    const held = await runYoke(ws, ['run', '--quiet'], { timeoutMs: 150_000 });
    expect(held.exitCode, held.stderr).toBe(1);
    const reason = /^escalate: up to deep \(strong\), rung 2 of 2, after iteration \d+ failed accept S1#1$/;
    const paused = await routingReport(ws);
    expect(paused).toMatchObject({ next: 'deep', newRun: 'fast', unfinished: { profile: 'deep', lanes: [{ story: 'S1', profile: 'deep', reason: expect.stringMatching(reason) as unknown }] } });
    const shown = (await runYoke(ws, ['routing'])).stdout;
    expect(shown).toMatch(/^the unfinished run \w+ continues with the profile deep in its lane \(`yoke run` resumes it; `--fresh` starts a new run as below\):$/m);
    expect(shown).toMatch(/^ {2}lane S1: the profile deep \(escalate: up to deep \(strong\), rung 2 of 2, after iteration \d+ failed accept S1#1\)$/m);
    expect((await runYoke(ws, ['budget', '--attempts', '6'])).exitCode).toBe(0);
    const run = await runYoke(ws, ['run', '--quiet'], { timeoutMs: 150_000 });
    expect(run.exitCode, run.stderr).toBe(0);
    // S2 landed while S1 waited: the prd.yaml S1's lane gets back is the run's own, not an agent's edit to warn about
    expect(run.stderr).not.toMatch(/prd\.yaml in story S1's worktree changed during the run/);

    const records = await readJournal(ws);
    expect((records.find((r) => r.type === 'run.started')?.payload as { input: { laneRouting?: boolean } }).input.laneRouting).toBe(true);
    const calls = await workerCalls(ws);
    const byStory = (id: string) => calls.filter((call) => call.story === id).map((call) => [call.profile, call.model, call.routeReason]);
    expect(byStory('S1')).toEqual([
      ['fast', 'fast-m', 'escalate: fast (light) is the first rung of 2'],
      ['deep', 'deep-m', expect.stringMatching(reason)],
    ]);
    expect(byStory('S2')).toEqual([['fast', 'fast-m', 'escalate: fast (light) is the first rung of 2']]);
    expect(((await ws.read('out-S1.txt')).trim())).toBe('deep');
    expect((await runYoke(ws, ['replay', '--verify'])).exitCode).toBe(0);

    // the ledger: each lane's story is one sequence, started (and so counted) by fast, both accepted
    await conf(['routing economic min-samples 10']);
    const evidence = (await routingReport(ws)).decision?.evidence ?? [];
    expect(evidence.find((e) => e.profile === 'fast')).toMatchObject({ samples: 2, accepted: 2, why: '2 of 10 complete sequences' });
    expect(evidence.find((e) => e.profile === 'fast')?.costUsd).toBeCloseTo(0.03, 6);
    expect(evidence.find((e) => e.profile === 'deep')).toMatchObject({ samples: 0 });
  }, 300_000);
});
