// A stories run (DESIGN §8) with the real Claude Code (issue 12): the built CLI runs `yoke run` in
// `mode stories` with `agent claude` against the scripted mock model server, offline (a
// loopback-only network namespace as root; tests/agents/support/offline-yoke.ts). Claude completes
// the story through real tool calls, the story's `check` passes, yoke writes `passes: true` and makes
// one `feat(<id>): <title>` commit with its trailers and its DECISIONS.md entry. The model request is
// checked for what the worker must be told: the project context (PROJECT.md), the story, each of its
// criteria (with its check), and the progress.
import { describe, expect, it } from 'vitest';
import { agentCliBinary, agentCliPins, installedAgentCli } from '../support/agent-clis.js';
import { cleanupAfterEach } from '../support/e2e-cleanup.js';
import { readJournal } from '../support/journal-records.js';
import type { MockScript } from '../support/mock-model-server/mock-script.js';
import type { OfflineRunResult } from '../support/mock-model-server/run-offline.js';
import { makeWorkspace, runYoke } from '../support/workspace.js';
import { runYokeOffline } from './support/offline-yoke.js';

const leftovers = cleanupAfterEach();

const PRD = `stories:
  - id: GREET-1
    title: Greeting file
    priority: 1
    description: The project greets whoever runs it.
    acceptance:
      - greet.txt is plain text
      - text: greet.txt says hello, yoke
        check: grep -q 'hello, yoke' greet.txt
    passes: false
`;

/** The project's north star (DESIGN §9): its text must reach the model ahead of the task. */
const PROJECT_GOAL = 'Goal: a friendly command-line greeter, with no network access.';
const PROJECT = `# Project\n\n${PROJECT_GOAL}\n`;

/** Claude's one call: write the greeting, then notes saying DONE with its decision, then a text turn. */
const WORKER: MockScript = [
  { writeFile: { path: 'greet.txt', content: 'hello, yoke\n' } },
  { writeFile: { path: '.loop/notes.md', content: 'STATUS: DONE\nDecision: the greeting is a plain text file\n' } },
  { text: 'GREET-1 is done: greet.txt says hello, yoke.' },
];

const turnBodies = (run: OfflineRunResult): string[] => run.requests.filter((request) => request.kind === 'turn').map((request) => JSON.stringify(request.body));

const installed = installedAgentCli('claude') !== undefined;
const skip = !installed && !process.env.CI;
if (skip) console.warn(`skipping the stories + claude test: claude ${agentCliPins.claude.version} is not installed at ${agentCliBinary('claude')}; run bash scripts/install-agent-clis.sh.`);

describe.skipIf(skip)(`stories with claude ${agentCliPins.claude.version}`, { timeout: 200_000 }, () => {
  it('Claude completes the story, its check passes, prd.yaml gets passes: true, one feat(GREET-1) commit with its trailers and decision entry; the model was told PROJECT.md, the story and its criteria', async () => {
    // No notes.md: Claude Code's Write tool refuses to overwrite a file it has not read (the mock has no read turn).
    const ws = await makeWorkspace({
      '.loop/yoke.conf': 'mode stories\nagent claude\nmodel claude-sonnet-4-5\nmax-iterations 2\n',
      '.loop/prd.yaml': PRD,
      '.loop/protocol.md': '# Protocol\n\nWork on the one story you are given, then write .loop/notes.md.\n',
      '.loop/judge.md': '# Judge\n\nJudge the story against its criteria.\n',
      '.loop/.gitignore': '.journal/\n.stash/\n',
      '.yoke/context/PROJECT.md': PROJECT,
      '.yoke/context/DECISIONS.md': '# Decisions\n',
    });
    leftovers.workspaces.push(ws);
    const before = (await ws.gitLog()).length;

    const run = await runYokeOffline('claude', ws.path, ['run'], WORKER);

    expect(run.timedOut, run.stderr).toBe(false);
    if (process.getuid?.() === 0) expect(run.isolated).toBe(true);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(await ws.read('greet.txt')).toBe('hello, yoke\n');
    expect(await ws.read('.loop/prd.yaml')).toBe(PRD.replace('passes: false', 'passes: true'));

    const log = await ws.gitLog();
    expect(log).toHaveLength(before + 1);
    const commit = log[0];
    expect(commit?.subject).toBe('feat(GREET-1): Greeting file');
    expect(commit?.message).toMatch(/\nYoke-Story: GREET-1\nYoke-Run: [0-9A-Z]{26}\nYoke-Effect: \S+/);
    const files = (await ws.git(['show', '--name-only', '--format=', commit?.sha ?? ''])).split('\n').filter((line) => line !== '');
    expect(files).toEqual(expect.arrayContaining(['.loop/prd.yaml', '.yoke/context/DECISIONS.md', 'greet.txt']));
    // the decision entry, dated by the journaled clock, summarised by the notes' Decision: line, is in the story's commit
    expect(await ws.git(['show', `${commit?.sha ?? ''}:.yoke/context/DECISIONS.md`])).toMatch(/^# Decisions\n\n## \d{4}-\d{2}-\d{2} — GREET-1: Greeting file\nthe greeting is a plain text file$/);

    // The model heard the story: its id and title, its description, each criterion and the check yoke runs, the progress.
    const [first] = turnBodies(run);
    expect(first).toBeDefined();
    for (const told of ['# Project context', '## .yoke/context/PROJECT.md', PROJECT_GOAL, '### GREET-1: Greeting file', 'The project greets whoever runs it.', '- greet.txt is plain text', "- greet.txt says hello, yoke (yoke checks it with `grep -q 'hello, yoke' greet.txt`)", '0 of 1 stories passed', 'This is your first attempt at this story.']) {
      expect(first, told).toContain(JSON.stringify(told).slice(1, -1));
    }
    // ahead of the task
    expect(first?.indexOf(PROJECT_GOAL)).toBeLessThan(first?.indexOf('### GREET-1') ?? -1);

    const records = await readJournal(ws);
    const spawn = records.find((r) => r.type === 'effect.started' && (r.payload as { kind: string }).kind === 'agent.spawn');
    expect(spawn?.payload).toMatchObject({ params: { role: 'worker', story: 'GREET-1' } });
    const checked = records.filter((r) => r.type === 'effect.started' && (r.payload as { kind: string }).kind === 'check.run').map((r) => (r.payload as { params: { name: string } }).params.name);
    expect(checked).toEqual(['GREET-1#2']);
    expect(records.find((r) => r.type === 'run.finished')?.payload).toMatchObject({ exitCode: 0, reason: 'stories-done' });

    const verify = await runYoke(ws, ['replay', '--verify']);
    expect(verify.exitCode, verify.stdout + verify.stderr).toBe(0);
  });
});
