// Routing end to end (DESIGN §15): profiles that report usage through $YOKE_USAGE_FILE, real runs
// filling the windows, then `routing economic` choosing by cost per accepted sequence, and
// `routing escalate` climbing from light to strong after a gate failure.
import { chmod, writeFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { readJournal } from '../support/journal-records.js';
import { makeWorkspace, runYoke, type Workspace } from '../support/workspace.js';

const workspaces: Workspace[] = [];
afterEach(async () => {
  for (const ws of workspaces.splice(0)) await ws.cleanup();
});

/**
 * A `cmd` agent: counts its calls in the side folder, reports `cost` dollars, and ships done.txt
 * on the calls `passes` says (else removes it, so the goal's acceptance fails).
 */
async function agentScript(ws: Workspace, name: string, cost: number, passes: string): Promise<string> {
  const path = ws.side(`${name}.sh`);
  await writeFile(path, [
    '#!/bin/sh',
    `n=$(( $(cat "${ws.side(`${name}.count`)}" 2>/dev/null || echo 0) + 1 ))`,
    `echo "$n" > "${ws.side(`${name}.count`)}"`,
    `printf '{"input_tokens": 100, "output_tokens": 10, "cost_usd": ${cost}}' > "$YOKE_USAGE_FILE"`,
    `if ${passes}; then echo ok > done.txt; else rm -f done.txt; fi`,
    'printf "STATUS: DONE\\n" > .loop/notes.md',
  ].join('\n'));
  await chmod(path, 0o755);
  return path;
}

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

interface SpawnParams { role: string; profile?: string }

async function workerProfiles(ws: Workspace): Promise<(string | undefined)[]> {
  return (await readJournal(ws))
    .filter((r) => r.type === 'effect.started' && (r.payload as { kind: string }).kind === 'agent.spawn')
    .map((r) => (r.payload as { params: SpawnParams }).params)
    .filter((params) => params.role === 'worker')
    .map((params) => params.profile);
}

describe('routing', () => {
  it('economic objective cost: from real runs, the dear profile that always passes is cheaper per accepted sequence than the cheap one that passes 1 of 3', async () => {
    const ws = await goalWorkspace();
    const cheap = await agentScript(ws, 'cheap', 0.01, '[ $((n % 3)) -eq 0 ]');
    const dear = await agentScript(ws, 'dear', 0.02, 'true');
    const profiles = [`profile cheap tier light cmd sh ${cheap}`, `profile dear tier strong cmd sh ${dear}`];
    await conf(ws, ['max-iterations 1', ...profiles, 'agent cheap']);
    const exits: number[] = [];
    for (let i = 0; i < 10; i += 1) exits.push((await runYoke(ws, ['run', '--quiet'])).exitCode ?? -1);
    expect(exits).toEqual([1, 1, 0, 1, 1, 0, 1, 1, 0, 1]);
    await conf(ws, ['max-iterations 1', ...profiles, 'agent dear']);
    for (let i = 0; i < 10; i += 1) expect((await runYoke(ws, ['run', '--quiet'])).exitCode).toBe(0);

    await conf(ws, ['max-iterations 1', ...profiles, 'agent cheap', 'routing economic objective cost min-samples 10']);
    const explained = await runYoke(ws, ['routing', '--json']);
    expect(explained.exitCode, explained.stderr).toBe(0);
    const report = JSON.parse(explained.stdout) as { next: string; decision: { baseline: string; reason: string; evidence: { profile: string; samples: number; accepted: number; costPerAccepted: number; eligible: boolean }[] } };
    expect(report.next).toBe('dear');
    expect(report.decision.baseline).toBe('cheap');
    const byName = Object.fromEntries(report.decision.evidence.map((e) => [e.profile, e]));
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
  }, 600_000);

  it('economic with too few sequences keeps the baseline and says why', async () => {
    const ws = await goalWorkspace();
    const cheap = await agentScript(ws, 'cheap', 0.01, 'true');
    const dear = await agentScript(ws, 'dear', 0.02, 'true');
    await conf(ws, [`profile cheap tier light cmd sh ${cheap}`, `profile dear cmd sh ${dear}`, 'agent cheap', 'routing economic min-samples 10']);
    expect((await runYoke(ws, ['run', '--quiet'])).exitCode).toBe(0);
    const explained = await runYoke(ws, ['routing']);
    expect(explained.stdout).toMatch(/starts with cheap[\s\S]*insufficient evidence: the baseline cheap has 1 of 10 complete sequences/);
  }, 120_000);

  it('escalate: a gate failure moves the next attempt from light to strong, and it stays there for the rest of the sequence', async () => {
    const ws = await goalWorkspace();
    const light = await agentScript(ws, 'light', 0.01, 'false');
    const strong = await agentScript(ws, 'strong', 0.05, '[ "$n" -ge 2 ]');
    await conf(ws, ['max-iterations 5', `profile deep tier strong cmd sh ${strong}`, `profile fast tier light cmd sh ${light}`, 'agent deep', 'routing escalate']);
    expect(JSON.parse((await runYoke(ws, ['routing', '--json'])).stdout)).toMatchObject({ routing: 'escalate', next: 'fast', ladder: [{ profile: 'fast', tier: 'light' }, { profile: 'deep', tier: 'strong' }] });
    const run = await runYoke(ws, ['run', '--quiet']);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(await workerProfiles(ws)).toEqual(['fast', 'deep', 'deep']);
    expect((await runYoke(ws, ['replay', '--verify'])).exitCode).toBe(0);
  }, 120_000);
});
