// The user-facing stories surface against the bundle (DESIGN §8): `yoke stories [--json]` with and
// without a run, `yoke stories import` (Ralph prd.json and plain lists; refusals change nothing),
// `yoke config check` validating prd.yaml, and an imported description and notes reaching the worker.
import { afterEach, describe, expect, it } from 'vitest';
import { readJournal } from '../support/journal-records.js';
import { makeWorkspace, runYoke, startYoke, type Workspace } from '../support/workspace.js';

const TIMEOUT = 90_000;
const workspaces: Workspace[] = [];
afterEach(async () => {
  for (const ws of workspaces.splice(0)) await ws.cleanup();
});

/** The scripted worker: keeps its prompt, fails S2's check on the first DONE claim, else does the story. */
const AGENT = `#!/bin/sh
cat > "$SIDE/prompt-$$.txt"
story=$(grep -o '^### [A-Za-z0-9_-]*:' "$SIDE/prompt-$$.txt" | head -1 | sed 's/^### //; s/:$//')
echo "$story" >> "$SIDE/calls"
if [ "$story" = S2 ] && [ ! -f "$SIDE/s2-tried" ]; then touch "$SIDE/s2-tried"; else echo "work for $story" > "out-$story.txt"; fi
printf 'STATUS: DONE\\n' > .loop/notes.md
`;

const PRD = `stories:
  - id: S1
    title: First
    acceptance:
      - text: out file exists
        check: test -f out-S1.txt
  - id: S2
    title: Second
    depends-on: [S1]
    acceptance:
      - text: second
        check: test -f out-S2.txt
  - id: S3
    title: Third
    depends-on: [S2]
    acceptance: [three]
  - id: S4
    title: Vague
`;

const RALPH = `{
  "project": "Greeter",
  "branchName": "ralph/greeter",
  "description": "Say hello",
  "userStories": [
    {
      "id": "US-001",
      "title": "Greeting",
      "description": "As a visitor I am greeted by name.",
      "acceptanceCriteria": ["greets by name"],
      "priority": 1,
      "passes": false,
      "notes": "Keep greet() pure."
    },
    {
      "id": "US-002",
      "title": "Farewell",
      "acceptanceCriteria": ["says goodbye"],
      "priority": 2,
      "passes": true,
      "notes": ""
    }
  ]
}
`;

async function workspace(files: Record<string, string>, conf = true): Promise<Workspace> {
  const ws = await makeWorkspace((paths) => ({
    ...(conf ? {
      '.loop/yoke.conf': `mode stories\nagent cmd SIDE=${paths.sideDir} sh ${paths.side('agent.sh')}\nmax-story-attempts 3\n`,
      '.loop/protocol.md': '# Protocol\n',
      '.loop/notes.md': 'STATUS: IN_PROGRESS\n',
      '.loop/.gitignore': '.journal/\n.stash/\n',
    } : { 'README.md': '# project\n' }),
    ...files,
  }));
  workspaces.push(ws);
  const { writeFile } = await import('node:fs/promises');
  await writeFile(ws.side('agent.sh'), AGENT);
  return ws;
}

interface StoriesJson {
  stories: Array<{ id: string; title: string; state: string; attempts: number; commit: string | null }>;
  passed: number;
  total: number;
  /** the lane worktrees a parallel run kept (none in these serial runs) */
  retained: Array<{ story: string; run: string; branch: string; path: string; why: string }>;
}

describe('yoke stories', () => {
  it('lists prd.yaml before any run: ready, waiting, stopped; no attempts, no commits', async () => {
    const ws = await workspace({ '.loop/prd.yaml': PRD });
    const result = await runYoke(ws, ['stories', '--json']);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      stories: [
        { id: 'S1', title: 'First', state: 'ready', attempts: 0, commit: null },
        { id: 'S2', title: 'Second', state: 'waiting', attempts: 0, commit: null },
        { id: 'S3', title: 'Third', state: 'waiting', attempts: 0, commit: null },
        { id: 'S4', title: 'Vague', state: 'stopped', attempts: 0, commit: null },
      ],
      passed: 0,
      total: 4,
      retained: [],
    });
    const text = await runYoke(ws, ['stories']);
    expect(text.exitCode).toBe(0);
    expect(text.stdout).toMatch(/^S1 +ready +0 attempts +- +First$/m);
    expect(text.stdout).toMatch(/^0 of 4 stories passed$/m);
    expect(await ws.exists('.loop/.journal')).toBe(false);
  }, TIMEOUT);

  it('after a run: attempts from the journal and the full sha of each story commit', async () => {
    const ws = await workspace({ '.loop/prd.yaml': PRD });
    const run = await runYoke(ws, ['run']);
    // S4 has no criteria: the line stops there after S1..S3 passed
    expect(run.exitCode, run.stderr).toBe(1);
    expect(run.stderr).toMatch(/story S4 has no acceptance criteria/);
    const log = await ws.gitLog();
    const sha = (subject: string) => log.find((entry) => entry.subject === subject)?.sha ?? 'missing';
    const result = await runYoke(ws, ['stories', '--json']);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      stories: [
        { id: 'S1', title: 'First', state: 'passed', attempts: 1, commit: sha('feat(S1): First') },
        { id: 'S2', title: 'Second', state: 'passed', attempts: 2, commit: sha('feat(S2): Second') },
        { id: 'S3', title: 'Third', state: 'passed', attempts: 1, commit: sha('feat(S3): Third') },
        { id: 'S4', title: 'Vague', state: 'stopped', attempts: 0, commit: null },
      ],
      passed: 3,
      total: 4,
      retained: [],
    } satisfies StoriesJson);
    expect(sha('feat(S2): Second')).toMatch(/^[0-9a-f]{40}$/);
    // the progress lines say each pass and the count
    expect(`${run.stdout}${run.stderr}`).toMatch(new RegExp(`story S1 passed, committed ${sha('feat(S1): First').slice(0, 10)} \\(1 of 4 stories passed\\)`));
    expect(`${run.stdout}${run.stderr}`).toMatch(/story S3 passed, committed [0-9a-f]{10} \(3 of 4 stories passed\)/);
    const status = await runYoke(ws, ['status', '--json']);
    expect(JSON.parse(status.stdout)).toMatchObject({ stories: { passed: 3, total: 4 } });
    expect((await runYoke(ws, ['status'])).stdout).toMatch(/^ {2}stories +3 of 4 stories passed$/m);
  }, TIMEOUT * 2);

  it('refuses outside stories mode with exit 2, and names an invalid prd.yaml with file:line', async () => {
    const loop = await workspace({ '.loop/yoke.conf': 'mode loop\nagent cmd true\n', '.loop/plan.md': '# plan\n' });
    const refused = await runYoke(loop, ['stories']);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toMatch(/^yoke: this workspace is in loop mode, and stories exist only in stories mode/m);
    const bad = await workspace({ '.loop/prd.yaml': 'stories:\n  - id: S1\n    title: A\n    acceptance: [x]\n    depends-on: [S9]\n' });
    const invalid = await runYoke(bad, ['stories']);
    expect(invalid.exitCode).toBe(2);
    expect(invalid.stderr).toMatch(/\.loop\/prd\.yaml:5:\d+: error: story S1 depends on `S9`/);
  }, TIMEOUT);
});

describe('yoke stories import', () => {
  it('turns a Ralph prd.json into prd.yaml and the stories workspace; description and notes reach the worker', async () => {
    const ws = await workspace({ 'prd.json': RALPH }, false);
    const result = await runYoke(ws, ['stories', 'import', 'prd.json']);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/Imported 2 stories from Ralph's prd\.json into \.loop\/prd\.yaml \(1 already passed\)/);
    // it says why the workspace appeared and which agent its yoke.conf runs, as yoke init does
    expect(result.stdout).toMatch(/^Initialized stories mode in \.loop \(there was no \.loop\/yoke\.conf; `yoke init stories` would write the same\):$/m);
    expect(result.stdout).toMatch(/^Agent: \S+, .*$/m);
    expect(await ws.read('.loop/yoke.conf')).toMatch(new RegExp(`^agent ${/^Agent: (\S+),/m.exec(result.stdout)?.[1] ?? '?'}$`, 'm'));
    expect(result.stderr).toMatch(/prd\.json:3: branchName `ralph\/greeter` is ignored/);
    for (const file of ['yoke.conf', 'protocol.md', 'judge.md', 'notes.md', 'prd.yaml']) expect(await ws.exists(`.loop/${file}`)).toBe(true);
    expect(await ws.read('.loop/yoke.conf')).toMatch(/^mode stories$/m);
    const prd = await ws.read('.loop/prd.yaml');
    expect(prd).toContain('description: As a visitor I am greeted by name.');
    expect(prd).toContain('notes: Keep greet() pure.');
    expect(prd).not.toMatch(/branchName|ralph\/greeter|notes: ""/);
    // it passes prd.yaml validation as `yoke config check` runs it
    await ws.write('.loop/yoke.conf', `mode stories\nagent cmd SIDE=${ws.sideDir} sh ${ws.side('agent.sh')}\n`);
    const check = await runYoke(ws, ['config', 'check']);
    expect(check.exitCode, check.stderr).toBe(0);
    const listed = JSON.parse((await runYoke(ws, ['stories', '--json'])).stdout) as StoriesJson;
    expect(listed.stories.map((row) => [row.id, row.state])).toEqual([['US-001', 'ready'], ['US-002', 'passed']]);
    const run = await runYoke(ws, ['run']);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(await ws.sideLines('calls')).toEqual(['US-001']);
    const { readdir, readFile } = await import('node:fs/promises');
    const prompts = (await readdir(ws.sideDir)).filter((name) => name.startsWith('prompt-'));
    const prompt = await readFile(ws.side(prompts[0] ?? 'none'), 'utf8');
    expect(prompt).toContain('As a visitor I am greeted by name.');
    expect(prompt).toContain('Keep greet() pure.');
    expect(prompt).toContain('1 of 2 stories passed');
  }, TIMEOUT * 2);

  it('imports a YAML list into an existing stories workspace; refuses to overwrite without --force, replaces with it', async () => {
    const ws = await workspace({
      '.loop/prd.yaml': PRD,
      'list.yaml': '- id: A1\n  title: Alpha\n  priority: 2\n  acceptance:\n    - text: alpha works\n      check: "true"\n  passes: false\n- id: B2\n  title: Beta\n  priority: 1\n  acceptance: [beta]\n',
    });
    const refused = await runYoke(ws, ['stories', 'import', 'list.yaml']);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toMatch(/\.loop\/prd\.yaml already exists; nothing was written\. Use `yoke stories import list\.yaml --force`/);
    expect(await ws.read('.loop/prd.yaml')).toBe(PRD);
    const agentToo = await runYoke(ws, ['stories', 'import', 'list.yaml', '--force', '--agent', 'codex']);
    expect(agentToo.exitCode).toBe(2);
    expect(agentToo.stderr).toMatch(/--agent applies only when the import creates the stories workspace, and \.loop\/yoke\.conf exists; change its `agent` line instead\. Nothing was written\./);
    expect(await ws.read('.loop/prd.yaml')).toBe(PRD);
    const forced = await runYoke(ws, ['stories', 'import', 'list.yaml', '--force', '--json']);
    expect(forced.exitCode, forced.stderr).toBe(0);
    expect(JSON.parse(forced.stdout)).toMatchObject({ file: '.loop/prd.yaml', format: 'list', stories: 2, passed: 0, created: [], agent: null });
    const listed = JSON.parse((await runYoke(ws, ['stories', '--json'])).stdout) as StoriesJson;
    expect(listed.stories.map((row) => row.id)).toEqual(['A1', 'B2']);
    expect(await ws.read('.loop/prd.yaml')).toMatch(/- text: alpha works\n\s+check: "true"/);
  }, TIMEOUT);

  it('refuses to import while a run holds the workspace (exit 3): prd.yaml is that run\'s input, nothing is written', async () => {
    const ws = await workspace({
      '.loop/yoke.conf': 'mode stories\nagent cmd sleep 30\n',
      '.loop/prd.yaml': PRD,
      'list.yaml': '- id: A1\n  title: Alpha\n  priority: 1\n  acceptance: [alpha]\n',
    });
    const run = startYoke(ws, ['run']);
    try {
      for (let tries = 0; !(await readJournal(ws)).some((r) => r.type === 'process.spawned'); tries += 1) {
        if (tries > 150) throw new Error('the run never started its agent');
        await new Promise((done) => setTimeout(done, 100));
      }
      const refused = await runYoke(ws, ['stories', 'import', 'list.yaml', '--force']);
      expect(refused.exitCode, refused.stderr).toBe(3);
      expect(await ws.read('.loop/prd.yaml')).toBe(PRD);
    } finally {
      run.kill('SIGINT');
    }
    expect((await run).exitCode).toBe(130);
  }, TIMEOUT);

  it('refuses invalid input with one file:line sentence, exit 2, nothing written', async () => {
    const ws = await workspace({
      'dup.json': '{"userStories": [\n  {"id": "X1", "title": "a"},\n  {"id": "X1", "title": "b"}\n]}\n',
      'untitled.yaml': '- id: S1\n  title: ok\n- id: S2\n  acceptance: [x]\n',
      'broken.json': '{"userStories": [\n  {"id": "X1",\n}\n',
      'unsafe.yaml': '- id: "../etc"\n  title: escape\n',
    }, false);
    const cases: Array<[string, RegExp]> = [
      ['dup.json', /^yoke: dup\.json:3:1: error: story id `X1` is used twice/],
      ['untitled.yaml', /^yoke: untitled\.yaml:3:3: error: story S2 has no `title`/],
      ['broken.json', /^yoke: broken\.json:\d+:\d+: error: broken\.json is neither valid JSON nor valid YAML/],
      ['unsafe.yaml', /^yoke: unsafe\.yaml:1:1: error: `\.\.\/etc` is not a safe story id/],
    ];
    for (const [file, pattern] of cases) {
      const result = await runYoke(ws, ['stories', 'import', file]);
      expect(result.exitCode, `${file}: ${result.stderr}`).toBe(2);
      expect(result.stderr, file).toMatch(pattern);
      expect(result.stderr, file).toMatch(/nothing was written/);
    }
    expect(await ws.exists('.loop')).toBe(false);
  }, TIMEOUT);

  it('refuses a workspace in another mode (exit 2, nothing written)', async () => {
    const ws = await workspace({ '.loop/yoke.conf': 'mode loop\nagent cmd true\n', 'prd.json': RALPH });
    const result = await runYoke(ws, ['stories', 'import', 'prd.json']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/\.loop\/yoke\.conf is in loop mode, so there is no prd\.yaml to import into; run `yoke mode stories` first/);
    expect(await ws.exists('.loop/prd.yaml')).toBe(false);
  }, TIMEOUT);
});

describe('yoke config check in stories mode', () => {
  it('validates prd.yaml too: file:line:column, exit 2, valid false in --json', async () => {
    const ws = await workspace({ '.loop/prd.yaml': 'stories:\n  - id: S1\n    title: A\n    passes: maybe\n    acceptance: [x]\n' });
    const result = await runYoke(ws, ['config', 'check']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/^\.loop\/prd\.yaml:4:13: error: `passes` of story S1 is not a boolean/m);
    expect(result.stderr).toMatch(/^1 error\(s\) in \.loop\/prd\.yaml\.$/m);
    const json = await runYoke(ws, ['config', 'check', '--json']);
    expect(json.exitCode).toBe(2);
    expect(JSON.parse(json.stdout)).toMatchObject({ valid: false, issues: [{ file: '.loop/prd.yaml', line: 4 }] });
  }, TIMEOUT);
});

describe('yoke check in stories mode', () => {
  it("runs each story's check as a criterion <id>#<n> and writes the report", async () => {
    const ws = await workspace({ '.loop/prd.yaml': PRD });
    const failed = await runYoke(ws, ['check']);
    expect(failed.exitCode, failed.stderr).toBe(1);
    expect(failed.stdout).toMatch(/^FAIL +criterion S1#1 /m);
    const report = JSON.parse(await ws.read('.loop/proof/latest/report.json')) as { status: string; criteria: Array<{ name: string; status: string }> };
    expect(report.status).toBe('failed');
    expect(report.criteria.map((criterion) => [criterion.name, criterion.status])).toEqual([['S1#1', 'failed'], ['S2#1', 'failed']]);
    await ws.write('out-S1.txt', 'one\n');
    await ws.write('out-S2.txt', 'two\n');
    const passed = await runYoke(ws, ['check', '--label', 'release-1', '--json']);
    expect(passed.exitCode, passed.stderr).toBe(0);
    expect(JSON.parse(passed.stdout)).toMatchObject({ path: '.loop/proof/release-1/report.json', exitCode: 0, report: { status: 'passed', criteria: [{ name: 'S1#1', status: 'passed' }, { name: 'S2#1', status: 'passed' }] } });
    // outside a run it opens no journal
    expect(await ws.exists('.loop/.journal')).toBe(false);
  }, TIMEOUT);

  it('refuses with exit 2: no story has a check, a journey check names no declared journey', async () => {
    const none = await workspace({ '.loop/prd.yaml': 'stories:\n  - id: S1\n    title: A\n    acceptance: [words only]\n' });
    const result = await runYoke(none, ['check']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/^yoke: no story in \.loop\/prd\.yaml has a `check`/m);
    const journey = await workspace({ '.loop/prd.yaml': 'stories:\n  - id: S1\n    title: A\n    acceptance: [x]\n  - id: S2\n    title: B\n    acceptance:\n      - text: logs in\n        check: journey:login\n' });
    const unknown = await runYoke(journey, ['check']);
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toMatch(/^yoke: \.loop\/prd\.yaml:5:1: error: story S2's criterion 1 checks `journey:login`, but yoke\.conf declares no journey `login`/m);
    expect(await journey.exists('.loop/proof')).toBe(false);
  }, TIMEOUT);
});

describe('yoke demo stories', () => {
  it('runs three stories offline with a scripted agent, one commit each, S2 after its failed check; the journal verifies', async () => {
    const ws = await workspace({}, false);
    const result = await runYoke(ws, ['demo', 'stories', '--keep'], { timeoutMs: 120_000 });
    expect(result.exitCode, result.stderr).toBe(0);
    const kept = /The repository is kept at (\S+)\./.exec(result.stdout)?.[1] ?? '';
    try {
      expect(result.stdout).toMatch(/^0 of 3 stories passed$/m);
      expect(result.stdout).toMatch(/^S2 +passed +2 attempts +[0-9a-f]{10} +Farewell$/m);
      expect(result.stdout).toMatch(/^3 of 3 stories passed$/m);
      expect(result.stdout).toMatch(/feat\(S3\): Usage in the README\n.*feat\(S2\): Farewell\n.*feat\(S1\): Greeting\n.*initial/);
      expect(result.stdout).toMatch(/check\.run accept S2#1 → FAIL/);
      const verify = await runYoke({ path: kept }, ['replay', '--verify']);
      expect(verify.exitCode, verify.stdout + verify.stderr).toBe(0);
    } finally {
      const { rm } = await import('node:fs/promises');
      if (kept !== '') await rm(kept, { recursive: true, force: true });
    }
  }, TIMEOUT * 2);

  it('names the demos there are for an unknown one (exit 2)', async () => {
    const ws = await workspace({}, false);
    const result = await runYoke(ws, ['demo', 'saga']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/there is no `saga` demo; run `yoke demo` \(a loop\) or `yoke demo stories`/);
  }, TIMEOUT);
});
