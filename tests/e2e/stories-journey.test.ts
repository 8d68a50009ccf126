// Stories mode with a `check: journey:<name>` (DESIGN §8, §12) in headless Chromium: the run runs the
// declared journey through the check engine after the story's commands (never handing
// `journey:greets` to sh), the story passes only once the journey passes, the report under
// .loop/proof/<run id>/ carries the config digest journaled with the run, and the journal
// verifies. A parallel run refuses the same check before anything is journaled.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startJourneyServer, type JourneyServer } from '../support/journey-server.js';
import { readJournal, type JournalRecord } from '../support/journal-records.js';
import { installShellAgent, shellCalls } from '../support/shell-agent.js';
import { makeWorkspace, runYoke, type Workspace } from '../support/workspace.js';

const TIMEOUT = 180_000;
const CHROMIUM = '/usr/bin/chromium';

const FLOW = "path: /site/index.html\nsteps:\n  - action: expect-text\n    selector: '#greeting'\n    text: Hello, world\n    exact: true\n    timeout: 3s\n";
const PRD = `stories:
  - id: S1
    title: Greeting page
    acceptance:
      - text: the page exists
        check: test -f site/index.html
      - text: a visitor is greeted
        check: journey:greets
`;
const page = (greeting: string): string => `<!doctype html><html><head><meta charset="utf-8"><title>Greeting</title></head><body><p id="greeting">${greeting}</p></body></html>\n`;

interface Params { label: string; criteria: unknown[]; configDigest?: string }
interface Result { status: string; report: { path: string; sha256: string }; criteria: { name: string; status: string; failedStep?: { index: number; action: string } | null }[] }

function payloads(records: readonly JournalRecord[], type: 'effect.started' | 'effect.completed', kind: string): Array<{ params?: unknown; result?: unknown }> {
  return records.filter((record) => record.type === type).map((record) => record.payload as { kind: string; params?: unknown; result?: unknown }).filter((payload) => payload.kind === kind);
}

const browser = existsSync(CHROMIUM);
describe.skipIf(!browser && process.env.CI !== 'true')('stories mode: a story checked by a journey in headless Chromium', () => {
  let server: JourneyServer;
  let ws: Workspace;
  let result: Awaited<ReturnType<typeof runYoke>>;
  let records: JournalRecord[];
  beforeAll(async () => {
    ws = await makeWorkspace((paths) => ({
      '.loop/yoke.conf': `mode stories\nagent cmd sh ${paths.side('agent.sh')}\nmax-iterations 3\njourney greets journeys/greets.yaml\nbase-url BASE_URL\n`,
      '.loop/prd.yaml': PRD,
      '.loop/protocol.md': '# Protocol\n',
      '.loop/notes.md': 'STATUS: IN_PROGRESS\n',
      '.loop/.gitignore': '.journal/\n.stash/\nproof/\n',
      'journeys/greets.yaml': FLOW,
    }));
    server = await startJourneyServer({ siteDir: ws.abs('site') });
    await ws.write('.loop/yoke.conf', (await ws.read('.loop/yoke.conf')).replace('BASE_URL', server.url));
    await ws.git(['add', '-A']);
    await ws.git(['commit', '-qm', 'the project']);
    // DONE with a typo the journey sees (its command check passes), then fixed
    await installShellAgent(ws.sideDir, {
      worker: [
        { write: { 'site/index.html': page('Helo, world') }, notes: 'DONE' },
        { write: { 'site/index.html': page('Hello, world') }, notes: 'DONE', record: { '.loop/guard-results.md': 'seen/guard-results-1.md' } },
      ],
    });
    result = await runYoke(ws, ['run'], { timeoutMs: TIMEOUT - 30_000 });
    records = await readJournal(ws);
  }, TIMEOUT);
  afterAll(async () => {
    await server?.close();
    await ws?.cleanup();
  });

  it('the story passes only on the iteration whose journey passes, and journey:greets never reaches sh', async () => {
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).not.toMatch(/not found/);
    expect((await shellCalls(ws.sideDir)).map((call) => call.iteration)).toEqual([1, 2]);
    expect((await ws.gitLog())[0]?.subject).toBe('feat(S1): Greeting page');
    const commands = payloads(records, 'effect.started', 'check.run').map((payload) => (payload.params as { name: string; command: string }));
    expect(commands).toEqual([expect.objectContaining({ name: 'S1#1', command: 'test -f site/index.html' }), expect.objectContaining({ name: 'S1#1' })]);
  });

  it('each iteration ran the journey as one acceptance.check after the command, labelled with the run id; the first failed at its step', () => {
    const run = records.find((record) => record.type === 'run.started')?.run ?? '';
    const started = payloads(records, 'effect.started', 'acceptance.check').map((payload) => payload.params as Params);
    expect(started).toHaveLength(2);
    expect(started[0]).toMatchObject({ label: run, criteria: [{ kind: 'journey', name: 'S1#2', flow: 'journeys/greets.yaml', journey: 'greets' }] });
    const completed = payloads(records, 'effect.completed', 'acceptance.check').map((payload) => payload.result as Result);
    expect(completed.map((check) => check.status)).toEqual(['failed', 'passed']);
    expect(completed[0]?.criteria[0]).toMatchObject({ name: 'S1#2', status: 'failed', failedStep: { index: 1, action: 'expect-text' } });
    // the command check ran first, the acceptance check after it
    const order = records.filter((record) => record.type === 'effect.started').map((record) => (record.payload as { kind: string }).kind).filter((kind) => kind === 'check.run' || kind === 'acceptance.check');
    expect(order).toEqual(['check.run', 'acceptance.check', 'check.run', 'acceptance.check']);
  });

  it('the worker was told which journey step failed, with the evidence, and no selector or text', async () => {
    const feedback = (await ws.sideText('seen/guard-results-1.md')) ?? '';
    expect(feedback).toMatch(/### journey `S1#2` — FAIL \(step 1 \(expect-text\): step-failed/);
    expect(feedback).toMatch(/evidence: \.loop\/proof\/\w+\/report\.json/);
    expect(feedback).not.toContain('#greeting');
    expect(feedback).not.toContain('Hello, world');
  });

  it("the report is the journaled one, with the digest of the config the run started with; status shows it; the journal verifies", async () => {
    const input = records.find((record) => record.type === 'run.started')?.payload as { input: { configDigest?: string } };
    const last = payloads(records, 'effect.completed', 'acceptance.check').map((payload) => payload.result as Result).at(-1);
    const bytes = readFileSync(ws.abs(`.loop/${last?.report.path ?? ''}`));
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(last?.report.sha256);
    const report = JSON.parse(bytes.toString('utf8')) as { status: string; journeys: { screenshot: string }[]; config: { effective: string } };
    expect(report).toMatchObject({ status: 'passed', journeys: [{ screenshot: 'greets.png' }] });
    expect(input.input.configDigest).toMatch(/^[0-9a-f]{64}$/);
    expect(report.config.effective).toBe(input.input.configDigest);
    // `yoke check` outside the run names the same effective config
    const check = await runYoke(ws, ['check', '--label', 'after', '--json'], { timeoutMs: 60_000 });
    expect(check.exitCode, check.stderr).toBe(0);
    expect((JSON.parse(check.stdout) as { report: { config: { effective: string } } }).report.config.effective).toBe(input.input.configDigest);
    const status = await runYoke(ws, ['status']);
    expect(status.stdout).toContain(`evidence  acceptance passed (iteration 2): .loop/${last?.report.path ?? ''}`);
    const verify = await runYoke(ws, ['replay', '--verify']);
    expect(verify.exitCode, verify.stdout + verify.stderr).toBe(0);
  }, TIMEOUT);

  it('a parallel run, and config check with `parallel`, refuse a journey check (exit 2) naming the story\'s line; nothing is journaled', async () => {
    const before = (await readJournal(ws)).length;
    const run = await runYoke(ws, ['run', '--parallel', '2']);
    expect(run.exitCode, run.stderr).toBe(2);
    expect(run.stderr).toMatch(/^yoke: \.loop\/prd\.yaml:2:1: error: story S1's criterion 2 checks `journey:greets`, but parallel lanes cannot run journeys yet/m);
    expect((await readJournal(ws)).length).toBe(before);
    const conf = await ws.read('.loop/yoke.conf');
    await ws.write('.loop/yoke.conf', `${conf}parallel 2\n`);
    const checked = await runYoke(ws, ['config', 'check']);
    expect(checked.exitCode, checked.stderr).toBe(2);
    expect(checked.stderr).toMatch(/^\.loop\/prd\.yaml:2:1: error: story S1's criterion 2 checks `journey:greets`, but parallel lanes cannot run journeys yet/m);
    await ws.write('.loop/yoke.conf', conf);
  }, TIMEOUT);
});
