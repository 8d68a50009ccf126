// Tool-call control in parallel lanes (DESIGN §10, §13; issues 13 and 16) with the real CLIs:
// `yoke run --parallel 2` with tool control on (the default) runs two stories at once, each lane's
// agent asking the gate on a socket of its own, judged in its own worktree. Both lanes get the same
// scripted turns (the mock answers each request by its own conversation): a shell write into S1's
// worktree. In S1's lane that is a plain edit, passed, and S1 lands with the file; in S2's lane it
// is a write outside its project, refused at call time and journaled as a ruling of S2's agent call,
// so nothing of S2's touches the file. `yoke replay --verify` re-derives every ruling in its lane's
// scope. The lanes' worktrees live under the state home, outside any `.git/` folder: Claude Code,
// which refuses by itself every write under one (its "sensitive file" rule), lands its lane's write too.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentCliBinary, agentCliPins, installedAgentCli } from '../support/agent-clis.js';
import { cleanupAfterEach } from '../support/e2e-cleanup.js';
import { laneWorktree } from '../support/parallel-workspace.js';
import { readJournal, type JournalRecord } from '../support/journal-records.js';
import type { MockScript } from '../support/mock-model-server/mock-script.js';
import { toolOutputsIn } from '../support/mock-model-server/tool-outputs.js';
import { makeWorkspace, runYoke } from '../support/workspace.js';
import { runYokeOffline } from './support/offline-yoke.js';

const leftovers = cleanupAfterEach();

const PRD = `stories:
  - id: S1
    title: Out file
    priority: 1
    acceptance:
      - text: out.txt says lane
        check: grep -q lane out.txt
    passes: false
  - id: S2
    title: Nothing to write
    priority: 2
    acceptance:
      - text: the project still builds
        check: "true"
    passes: false
`;

const LANDING = ['gemini', 'codex', 'claude'] as const;
const models = { gemini: 'gemini-2.5-pro', codex: 'gpt-5.5', claude: 'claude-sonnet-4-5' } as const;
type Cli = keyof typeof models;
const missing = LANDING.filter((cli) => installedAgentCli(cli) === undefined);
if (missing.length > 0) console.warn(`skipping parallel tool-control tests: ${missing.map((cli) => `${cli} ${agentCliPins[cli].version} is not installed at ${agentCliBinary(cli)}`).join('; ')}; run bash scripts/install-agent-clis.sh.`);
const skipped = (cli: Cli): boolean => missing.includes(cli) && !process.env.CI;

type Payload = Record<string, unknown>;
const payload = (record: JournalRecord | undefined): Payload => (record?.payload ?? {}) as Payload;

/** A parallel run of S1 and S2 with `cli`, each lane's call making the same shell write into S1's worktree; its rulings of that write, with their lane and root. */
async function laneRun(cli: Cli) {
  const ws = await makeWorkspace({
    '.loop/yoke.conf': `mode stories\nagent ${cli}\nmodel ${models[cli]}\nmax-iterations 2\nparallel 2\n`,
    '.loop/prd.yaml': PRD,
    '.loop/protocol.md': '# Protocol\n\nWork on the one story you are given, then write .loop/notes.md.\n',
    '.loop/judge.md': '# Judge\n',
    '.loop/.gitignore': '.journal/\n.stash/\n',
  });
  leftovers.workspaces.push(ws);
  // a state home shaped like the default one (~/.local/state): no CLI may take it for a sensitive folder
  const state = join(ws.sideDir, 'home', '.local', 'state');
  const s1 = laneWorktree(ws, 'S1', state);
  const s2 = laneWorktree(ws, 'S2', state);
  // every lane's call: the shell write into S1's worktree, then its notes, then a last word
  const lane = { byRound: [
    { runCommand: { command: `echo lane > ${s1}/out.txt` } },
    { writeFile: { path: '.loop/notes.md', content: 'STATUS: DONE\n' } },
    { text: 'done' },
  ] };
  const script: MockScript = Array.from({ length: 6 }, () => lane);

  // the lanes under that state home, where the scripted write expects S1's worktree
  const run = await runYokeOffline(cli, ws.path, ['run'], script, 200_000, { prepare: (env) => { env.XDG_STATE_HOME = state; } });
  expect(run.timedOut, run.stderr).toBe(false);
  expect(run.stderr).not.toMatch(/tool calls yet/);

  const records = await readJournal(ws);
  // each lane's agent call, by its lane
  const calls = new Map<string, string>();
  for (const record of records) {
    const p = payload(record);
    if (record.type === 'effect.started' && p.kind === 'agent.spawn') calls.set(p.key as string, (p.params as { lane: string }).lane);
  }
  expect([...new Set(calls.values())].sort()).toEqual(['S1', 'S2']);
  // each ruling with its request: the last one of its id before it (two lanes' identical calls share an id)
  const asked = new Map<string, Payload>();
  const writes: Array<{ lane: string | undefined; root: string | undefined; ruling: unknown; class: unknown }> = [];
  for (const record of records) {
    const p = payload(record);
    if (record.type === 'tool.requested') asked.set(p.id as string, p);
    if (record.type !== 'tool.ruled') continue;
    const request = asked.get(p.id as string) ?? {};
    if (!JSON.stringify(request.input).includes('echo lane')) continue;
    writes.push({ lane: calls.get(request.key as string), root: (request.scope as { root?: string } | undefined)?.root, ruling: p.ruling, class: p.class });
  }
  // S1's write is an edit in S1's worktree; S2's the same write, outside S2's worktree
  expect(writes).toEqual(expect.arrayContaining([
    { lane: 'S1', root: s1, ruling: 'pass', class: 'edit' },
    { lane: 'S2', root: s2, ruling: 'refuse', class: 'protected' },
  ]));
  expect(writes).toHaveLength(2);
  // S2's agent was told the refusal as the tool's error
  const told = run.requests.flatMap((request) => toolOutputsIn(request).map((output) => output.output)).join('\n');
  expect(told).toContain('outside the project');
  const verify = await runYoke(ws, ['replay', '--verify']);
  expect(verify.exitCode, verify.stdout + verify.stderr).toBe(0);
  return { ws, run };
}

describe('parallel lanes through the tool-call gate', { timeout: 240_000 }, () => {
  it.each(LANDING.filter((cli) => !skipped(cli)))('%s: a lane\'s write outside its worktree is refused for that lane\'s call and never lands, the other lane\'s same write passes and lands, replay --verify agrees', async (cli) => {
    const { ws, run } = await laneRun(cli);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(await ws.read('out.txt')).toBe('lane\n');
    const log = await ws.gitLog();
    expect(log.map((commit) => commit.subject)).toEqual(expect.arrayContaining(['feat(S1): Out file', 'feat(S2): Nothing to write']));
    const s2Commit = log.find((commit) => commit.subject === 'feat(S2): Nothing to write');
    const s2Files = (await ws.git(['show', '--name-only', '--format=', s2Commit?.sha ?? ''])).split('\n').filter((line) => line !== '');
    expect(s2Files, 'S2 landed nothing of out.txt').not.toContain('out.txt');
  });

  it.skipIf(skipped('gemini'))('gemini: two lanes held on two calls pause naming both lanes and both ids; answering the one not named last goes on, and the same call then held in both lanes is one id naming both; its answer lands both stories, replay --verify agrees', async () => {
    const ws = await makeWorkspace({
      '.loop/yoke.conf': `mode stories\nagent gemini\nmodel ${models.gemini}\nmax-iterations 6\nparallel 2\n`,
      '.loop/prd.yaml': PRD.replace('grep -q lane out.txt', '"true"'),
      '.loop/protocol.md': '# Protocol\n\nWork on the one story you are given, then write .loop/notes.md.\n',
      '.loop/judge.md': '# Judge\n',
      '.loop/.gitignore': '.journal/\n.stash/\n',
    });
    leftovers.workspaces.push(ws);
    // a lane's call: `command` (a network call, held), then its notes, then a last word
    const laneTurns = (command: string) => ({ byRound: [
      { runCommand: { command } },
      { writeFile: { path: '.loop/notes.md', content: 'STATUS: DONE\n' } },
      { text: 'done' },
    ] });
    const curl = (path: string): string => `curl -s http://127.0.0.1:9/${path} > /dev/null`;
    // the first lane call to ask gets the first turn (curl …/a), the other lane's first request a later one (curl …/b)
    const first = await runYokeOffline('gemini', ws.path, ['run'], [laneTurns(curl('a')), ...Array.from({ length: 5 }, () => laneTurns(curl('b')))], 200_000);
    expect(first.exitCode, first.stderr).toBe(1);
    const held = (await readJournal(ws)).filter((record) => record.type === 'effect.completed' && payload(record).kind === 'agent.spawn')
      .map((record) => (payload(record).result as { classification: string }).classification);
    expect(held).toEqual(['tool-held', 'tool-held']);
    type Listed = { id: string; class: string; agent: string; summary: string; lanes: string[]; stories: string[] };
    const listed = async (): Promise<Listed[]> => JSON.parse((await runYoke(ws, ['holds', '--json'])).stdout) as Listed[];
    const two = await listed();
    expect(two.map((hold) => hold.summary).sort()).toEqual([curl('a'), curl('b')]);
    expect(two.flatMap((hold) => hold.lanes).sort(), 'each hold names the lane it came from').toEqual(['S1', 'S2']);
    for (const hold of two) {
      expect(hold).toMatchObject({ class: 'network', agent: 'gemini', stories: hold.lanes });
      // the pause names every held lane with its own hold id, not only the last one
      expect(first.stderr).toContain(`story ${hold.lanes[0]}: its worker's tool call ${hold.id} waits for the operator; answer with \`yoke answer ${hold.id} pass|refuse\``);
    }
    expect(first.stderr).toContain('is held in 2 lanes:');
    const text = await runYoke(ws, ['holds']);
    for (const hold of two) expect(text.stdout).toMatch(new RegExp(`^${hold.id}  \\S+  lane ${hold.lanes[0]}  gemini `, 'm'));

    // answer only the hold the run's pause record does not name (the machine keeps the last held lane's)
    const paused = (await readJournal(ws)).filter((record) => record.type === 'run.paused').map((record) => payload(record).reason);
    const last = two.find((hold) => paused.at(-1) === `tool:${hold.id}`);
    const other = two.find((hold) => hold !== last);
    expect(last, `the pause names one of the holds: ${JSON.stringify(paused)}`).toBeDefined();
    expect((await runYoke(ws, ['answer', other!.id, 'pass'])).exitCode).toBe(0);
    // both lanes call again, and both now make the still unanswered call: one hold, naming both lanes
    const second = await runYokeOffline('gemini', ws.path, ['run'], Array.from({ length: 6 }, () => laneTurns(last!.summary)), 200_000);
    expect(second.exitCode, second.stderr).toBe(1);
    const retried = (await readJournal(ws)).filter((record) => record.type === 'event' && (payload(record).event as { type: string }).type === 'AGENT_RETRY');
    expect(retried, 'an answer to any held lane\'s call sends the held lanes on').toHaveLength(1);
    const [shared, ...none] = await listed();
    expect(none).toEqual([]);
    expect(shared?.id).toBe(last!.id);
    expect([...shared!.lanes].sort(), 'the shared hold names both lanes').toEqual(['S1', 'S2']);
    expect(second.stderr).toMatch(new RegExp(`story S[12]: its worker's tool call ${last!.id} waits for the operator.*\\n  story S[12]: its worker's tool call ${last!.id} waits for the operator.*\\(the same call as story S[12]'s: one answer answers both\\)`));
    expect((await runYoke(ws, ['holds'])).stdout).toMatch(new RegExp(`^${last!.id}  \\S+  lanes S[12], S[12]  gemini `, 'm'));
    expect((await runYoke(ws, ['answer', last!.id, 'pass'])).exitCode).toBe(0);

    const third = await runYokeOffline('gemini', ws.path, ['run'], Array.from({ length: 6 }, () => laneTurns(last!.summary)), 200_000);
    expect(third.exitCode, third.stderr).toBe(0);
    const records = await readJournal(ws);
    const byAnswer = records.filter((record) => record.type === 'tool.ruled' && (payload(record).source as { kind: string }).kind === 'answer');
    expect(byAnswer.map((record) => payload(record).ruling)).toEqual(['pass', 'pass']);
    const log = await ws.gitLog();
    expect(log.map((commit) => commit.subject)).toEqual(expect.arrayContaining(['feat(S1): Out file', 'feat(S2): Nothing to write']));
    const verify = await runYoke(ws, ['replay', '--verify']);
    expect(verify.exitCode, verify.stdout + verify.stderr).toBe(0);
  });
});
