// Goal mode with a browser journey among its acceptance criteria (issue 17, DESIGN §12): the goal
// completes only once the journey passes in headless Chromium against a real local application
// serving the project's own page. Each attempt's acceptance is one `acceptance.check` whose report
// lands in .loop/proof/<run id>/; the journal and `yoke status` name the last report and its digest.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startJourneyServer, type JourneyServer } from '../support/journey-server.js';
import { readJournal, type JournalRecord } from '../support/journal-records.js';
import { installShellAgent, shellCalls } from '../support/shell-agent.js';
import { makeWorkspace, runYoke, type Workspace } from '../support/workspace.js';

const TIMEOUT = 180_000;
const CHROMIUM = '/usr/bin/chromium';
const SECRET = 'goal-secret-value-5521-zebra';

const FLOW = `# the page greets whoever signs in
path: /site/index.html
steps:
  - action: fill
    selector: '#who'
    value-env: GOAL_SECRET
  - action: expect-text
    selector: '#greeting'
    text: Hello, world
    exact: true
    timeout: 3s
`;
const page = (greeting: string): string =>
  `<!doctype html><html><head><meta charset="utf-8"><title>Greeting</title></head><body><input id="who"><p id="greeting">${greeting}</p></body></html>\n`;

interface Completed {
  outcome: string;
  status: string;
  report: { path: string; sha256: string };
  criteria: { name: string; kind: string; status: string; category?: string | null; failedStep?: { index: number; action: string } | null }[];
}

/** The journaled `effect.started` / `effect.completed` records of one effect kind. */
function effects(records: readonly JournalRecord[], type: 'effect.started' | 'effect.completed', kind: string): { kind: string; params?: unknown; result?: unknown }[] {
  return records.filter((record) => record.type === type).map((record) => record.payload as { kind: string }).filter((payload) => payload.kind === kind);
}

/** Every acceptance check's journaled result, in order. */
function checkResults(records: readonly JournalRecord[]): Completed[] {
  return effects(records, 'effect.completed', 'acceptance.check').map((payload) => payload.result as Completed);
}

const browser = existsSync(CHROMIUM);
describe.skipIf(!browser && process.env.CI !== 'true')('goal mode: acceptance with a journey in headless Chromium', () => {
  let server: JourneyServer;
  let ws: Workspace;
  let result: Awaited<ReturnType<typeof runYoke>>;
  beforeAll(async () => {
    ws = await makeWorkspace((paths) => ({
      '.loop/yoke.conf': `${[
        'mode goal',
        `agent cmd sh ${paths.side('agent.sh')}`,
        'max-iterations 4',
        'accept page test -f site/index.html',
        'journey greets journeys/greets.yaml',
        'artifact site/index.html page greets',
        'base-url BASE_URL',
      ].join('\n')}\n`,
      '.loop/goal.md': '# Goal\n\nThe page says "Hello, world".\n',
      '.loop/protocol.md': '# Protocol\n\nOne attempt at a time.\n',
      '.loop/notes.md': 'STATUS: IN_PROGRESS\n',
      '.loop/.gitignore': '.journal/\n.stash/\nproof/\n',
      'journeys/greets.yaml': FLOW,
    }));
    server = await startJourneyServer({ siteDir: ws.abs('site') });
    const conf = readFileSync(ws.abs('.loop/yoke.conf'), 'utf8').replace('BASE_URL', server.url);
    await ws.write('.loop/yoke.conf', conf);
    await ws.git(['add', '-A']);
    await ws.git(['commit', '-qm', 'the project']);
    // The worker claims DONE with a broken page (a typo the journey sees), then fixes it.
    await installShellAgent(ws.sideDir, {
      worker: [
        { write: { 'site/index.html': page('Helo, world') }, notes: 'DONE' },
        { write: { 'site/index.html': page('Hello, world') }, notes: 'DONE', record: { '.loop/guard-results.md': 'seen/guard-results-1.md' } },
      ],
    });
    result = await runYoke(ws, ['run'], { timeoutMs: TIMEOUT - 20_000, env: { GOAL_SECRET: SECRET } });
  }, TIMEOUT);
  afterAll(async () => {
    await server?.close();
    await ws?.cleanup();
  });

  it('completes only on the attempt whose journey passes', async () => {
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/goal complete after 2 attempt\(s\)/);
    expect((await shellCalls(ws.sideDir)).map((call) => call.iteration)).toEqual([1, 2]);
    expect((await ws.gitLog())[0]?.subject).toBe('yoke: goal done after attempt 2');
  });

  it('each attempt ran one acceptance.check: the first failed at the journey\'s expect-text step, the second passed', async () => {
    const records = await readJournal(ws);
    const started = effects(records, 'effect.started', 'acceptance.check');
    expect(started).toHaveLength(2);
    // the params name the flow file, never its selectors, texts or the environment's values
    expect(JSON.stringify(started)).toContain('journeys/greets.yaml');
    expect(effects(records, 'effect.started', 'check.run')).toEqual([]);
    const completed = checkResults(records);
    expect(completed.map((check) => check.status)).toEqual(['failed', 'passed']);
    const run = records.find((record) => record.type === 'run.started')?.run ?? '';
    expect(completed.map((check) => check.report.path)).toEqual([`proof/${run}/report.json`, `proof/${run}/report.json`]);
    expect(completed[0]?.criteria.map((criterion) => [criterion.name, criterion.kind, criterion.status])).toEqual([['page', 'command', 'passed'], ['greets', 'journey', 'failed']]);
    expect(completed[0]?.criteria[1]).toMatchObject({ category: 'step-failed', failedStep: { index: 2, action: 'expect-text' } });
  });

  it('the worker was told which journey step failed, with the evidence folder, and no selector or text', async () => {
    const feedback = (await ws.sideText('seen/guard-results-1.md')) ?? '';
    expect(feedback).toMatch(/## Acceptance: FAILED \(evidence: \.loop\/proof\/\w+\/report\.json\)/);
    expect(feedback).toMatch(/### accept `page` — PASS/);
    expect(feedback).toMatch(/### journey `greets` — FAIL \(step 2 \(expect-text\): step-failed/);
    expect(feedback).not.toContain('#greeting');
    expect(feedback).not.toContain('Hello, world');
  });

  it('the run id\'s proof folder holds the passing report, its screenshot, and the bound artifact\'s hash; its digest is the journaled one', async () => {
    const records = await readJournal(ws);
    const run = records.find((record) => record.type === 'run.started')?.run ?? '';
    const last = checkResults(records).at(-1) as Completed;
    const bytes = readFileSync(ws.abs(`.loop/${last.report.path}`));
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(last.report.sha256);
    const report = JSON.parse(bytes.toString('utf8')) as { label: string; status: string; journeys: { status: string; screenshot: string | null }[]; artifacts: { path: string; status: string; sha256: string }[] };
    expect(report).toMatchObject({ label: run, status: 'passed' });
    const screenshot = report.journeys[0]?.screenshot ?? '';
    expect(statSync(ws.abs(`.loop/proof/${run}/${screenshot}`)).size).toBeGreaterThan(0);
    expect(report.artifacts).toEqual([expect.objectContaining({ path: 'site/index.html', status: 'passed', sha256: createHash('sha256').update(page('Hello, world')).digest('hex') })]);
    // the failed attempt's evidence was replaced whole, and no scratch folder is left
    expect(readdirSync(ws.abs('.loop/proof'))).toEqual([run]);
  });

  it('yoke status names the last report and its digest (text and --json)', async () => {
    const records = await readJournal(ws);
    const last = checkResults(records).at(-1) as Completed;
    const json = await runYoke(ws, ['status', '--json']);
    expect(json.exitCode, json.stderr).toBe(0);
    expect((JSON.parse(json.stdout) as { acceptance: unknown }).acceptance).toEqual({ path: `.loop/${last.report.path}`, sha256: last.report.sha256, status: 'passed', iteration: 2 });
    const text = await runYoke(ws, ['status']);
    expect(text.stdout).toContain(`acceptance passed (attempt 2): .loop/${last.report.path} sha256 ${last.report.sha256.slice(0, 16)}`);
  });

  it('the secret fill value is in no file under .loop/', () => {
    const walk = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const path = join(dir, entry.name);
      return entry.isDirectory() ? walk(path) : entry.isFile() ? [path] : [];
    });
    const leaks = walk(ws.abs('.loop')).filter((file) => readFileSync(file).includes(SECRET));
    expect(leaks).toEqual([]);
  });
});
