// Journey failures and guarantees in headless Chromium (issue 17, DESIGN §12), through one
// `yoke check` of a stories project with a journey per category against one local application:
// `press`, a step's `timeout` and the flow's budget, an HTTP error on opening a page and on a
// reload (`navigation-failed`), an uncaught exception (`page-error`), `expect-url`, a fresh browser
// context per flow, and a journey named by a story's `journey:` check that runs once. Then a bad
// flow file, which is refused before the browser is ever started.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { chmod, rm, writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startJourneyServer, type JourneyServer } from '../support/journey-server.js';
import { makeWorkspace, runYoke, type Workspace } from '../support/workspace.js';

const TIMEOUT = 150_000;
const RUN = { timeoutMs: 120_000 };
const CHROMIUM = '/usr/bin/chromium';
const FFMPEG = '/usr/bin/ffmpeg';

const FLOWS: Record<string, string> = {
  // press: Enter in a field the page answers
  'press': "path: /press\nsteps:\n  - action: fill\n    selector: '#q'\n    value: yoke\n  - action: press\n    selector: '#q'\n    key: Enter\n  - action: expect-text\n    selector: '#out'\n    text: Searched yoke\n    exact: true\n",
  // the page sets a cookie: absent on opening, sent back on the reload (the flow's context keeps it)
  'cookie-first': "path: /cookie\nsteps:\n  - action: expect-text\n    selector: '#cookie'\n    text: 'cookie: none'\n    exact: true\n  - action: reload\n  - action: expect-text\n    selector: '#cookie'\n    text: 'cookie: seen'\n    exact: true\n",
  // the next flow opens the same page in a fresh context: no cookie from the flow before
  'cookie-fresh': "path: /cookie\nsteps:\n  - action: expect-text\n    selector: '#cookie'\n    text: 'cookie: none'\n    exact: true\n",
  'not-found': 'path: /nowhere\nsteps:\n  - action: expect-visible\n    selector: body\n',
  // the button makes the page answer 404: the reload fails
  'vanish': "path: /vanish\nsteps:\n  - action: click\n    selector: '#drop'\n  - action: reload\n  - action: expect-visible\n    selector: '#here'\n",
  'page-error': "path: /page-error\nsteps:\n  - action: expect-visible\n    selector: '#ok'\n",
  // a step's own timeout: the URL never becomes /elsewhere
  'wrong-url': 'path: /\nsteps:\n  - action: expect-url\n    url: /elsewhere\n    timeout: 1s\n  - action: reload\n',
  // the flow's budget cuts a step that may wait 10 s
  'budget': "path: /\ntimeout: 2s\nsteps:\n  - action: expect-visible\n    selector: '#never'\n    timeout: 10s\n  - action: reload\n",
};

interface Step { index: number; action: string; status: string; category: string | null; durationMs: number }
interface Journey { name: string; status: string; category: string | null; durationMs: number; navigation: { status: string; category: string | null }; steps: Step[]; screenshot: string | null; video: string | null }
interface Report {
  status: string;
  criteria: { name: string; kind: string; status: string }[];
  journeys: Journey[];
  config: { digest: string; effective: string | null; flows: { journey: string; sha256: string }[] };
}

const workspaces: Workspace[] = [];
afterAll(async () => {
  for (const ws of workspaces) await ws.cleanup();
});

const steps = (journey: Journey | undefined) => journey?.steps.map((step) => [step.action, step.status, step.category]);

const browser = existsSync(CHROMIUM);
describe.skipIf(!browser && process.env.CI !== 'true')('yoke check: every failure category in real Chromium, one check, one application', () => {
  let server: JourneyServer;
  let ws: Workspace;
  let result: Awaited<ReturnType<typeof runYoke>>;
  let report: Report;
  const journey = (name: string): Journey | undefined => report.journeys.find((entry) => entry.name === name);
  beforeAll(async () => {
    server = await startJourneyServer();
    ws = await makeWorkspace({
      '.loop/yoke.conf': `${['mode stories', 'agent claude', ...Object.keys(FLOWS).map((name) => `journey ${name} journeys/${name}.yaml`), `base-url ${server.url}`].join('\n')}\n`,
      '.loop/prd.yaml': 'stories:\n  - id: S1\n    title: Search\n    acceptance:\n      - text: a search answers Enter\n        check: journey:press\n',
      '.loop/.gitignore': '.journal/\n.stash/\nproof/\n',
      ...Object.fromEntries(Object.entries(FLOWS).map(([name, flow]) => [`journeys/${name}.yaml`, flow])),
    });
    workspaces.push(ws);
    result = await runYoke(ws, ['check'], RUN);
    report = JSON.parse(readFileSync(ws.abs('.loop/proof/latest/report.json'), 'utf8')) as Report;
  }, TIMEOUT);
  afterAll(() => server?.close());

  it('failing journeys fail the check (exit 1), and every later journey still ran', () => {
    expect(result.exitCode, result.stderr).toBe(1);
    expect(report.criteria.map((criterion) => [criterion.name, criterion.status])).toEqual([
      ['S1#1', 'passed'], ['press', 'passed'], ['cookie-first', 'passed'], ['cookie-fresh', 'passed'],
      ['not-found', 'failed'], ['vanish', 'failed'], ['page-error', 'failed'], ['wrong-url', 'failed'], ['budget', 'failed'],
    ]);
  });

  it("a story's journey:press and the journey press are one run of the flow, reported under both names with one screenshot", () => {
    expect(server.hits.get('/press')).toBe(1);
    expect(steps(journey('S1#1'))).toEqual([['fill', 'passed', null], ['press', 'passed', null], ['expect-text', 'passed', null]]);
    expect(journey('S1#1')).toEqual({ ...journey('press'), name: 'S1#1' });
    expect(journey('press')?.screenshot).toBe('press.png');
    expect(report.config.flows.map((flow) => flow.journey)).toEqual(Object.keys(FLOWS));
    expect(result.stderr.match(/journey press: journeys\/press\.yaml/g)).toHaveLength(1);
  });

  it('each flow has a fresh browser context: the cookie one flow got is not sent by the next', () => {
    expect(steps(journey('cookie-first'))).toEqual([['expect-text', 'passed', null], ['reload', 'passed', null], ['expect-text', 'passed', null]]);
    expect(journey('cookie-fresh')).toMatchObject({ status: 'passed', steps: [{ status: 'passed' }] });
  });

  it('an HTTP error opening the page, or on a reload, is navigation-failed; the steps after it are skipped', () => {
    expect(journey('not-found')).toMatchObject({ status: 'failed', category: 'navigation-failed', navigation: { status: 'failed', category: 'navigation-failed' } });
    expect(steps(journey('not-found'))).toEqual([['expect-visible', 'skipped', null]]);
    expect(journey('vanish')).toMatchObject({ status: 'failed', category: 'navigation-failed', navigation: { status: 'passed' } });
    expect(steps(journey('vanish'))).toEqual([['click', 'passed', null], ['reload', 'failed', 'navigation-failed'], ['expect-visible', 'skipped', null]]);
  });

  it('an uncaught exception in the page is page-error', () => {
    expect(journey('page-error')).toMatchObject({ status: 'failed', category: 'page-error', navigation: { status: 'failed', category: 'page-error' } });
    expect(steps(journey('page-error'))).toEqual([['expect-visible', 'skipped', null]]);
  });

  it("expect-url waits for exactly its URL, until the step's own timeout", () => {
    const wrong = journey('wrong-url');
    expect(steps(wrong)).toEqual([['expect-url', 'failed', 'timeout'], ['reload', 'skipped', null]]);
    expect(wrong?.steps[0]?.durationMs).toBeGreaterThanOrEqual(900);
    expect(wrong?.steps[0]?.durationMs).toBeLessThan(5_000);
  });

  it("the flow's budget cuts a step short of its own timeout", () => {
    const budget = journey('budget');
    expect(steps(budget)).toEqual([['expect-visible', 'failed', 'timeout'], ['reload', 'skipped', null]]);
    // the step could wait 10 s; the flow had 2 s, opening the page included
    expect(budget?.steps[0]?.durationMs).toBeLessThan(2_500);
    expect(budget?.durationMs).toBeLessThan(8_000);
  });

  it('every journey kept its screenshot; failed ones a video too (with ffmpeg), passed ones none', () => {
    const failed = ['not-found', 'vanish', 'page-error', 'wrong-url', 'budget'];
    for (const name of [...Object.keys(FLOWS), 'S1#1']) {
      const entry = journey(name);
      const file = name === 'S1#1' ? 'press' : name;
      expect(entry?.screenshot, name).toBe(`${file}.png`);
      expect(statSync(ws.abs(`.loop/proof/latest/${file}.png`)).size, name).toBeGreaterThan(0);
      if (!failed.includes(name)) expect(entry?.video, name).toBeNull();
      else if (existsSync(FFMPEG)) {
        expect(entry?.video, name).toBe(`${name}.webm`);
        expect(readFileSync(ws.abs(`.loop/proof/latest/${name}.webm`)).subarray(0, 4).toString('hex'), name).toBe('1a45dfa3');
      }
    }
  });

  it('the report carries the whole effective config\'s digest besides the check\'s own', () => {
    expect(report.config.effective).toMatch(/^[0-9a-f]{64}$/);
    expect(report.config.effective).not.toBe(report.config.digest);
  });
});

describe('yoke check: a bad flow file is refused before the browser starts', () => {
  it('the browser never starts: YOKE_CHROMIUM, a script leaving a marker, runs for a good flow and not for a bad one', async () => {
    const server = await startJourneyServer();
    try {
      const ws = await makeWorkspace({
        '.loop/yoke.conf': `mode loop\nagent claude\njourney smoke journeys/smoke.yaml\nbase-url ${server.url}\n`,
        'journeys/smoke.yaml': 'steps:\n  - action: reload\n',
      });
      workspaces.push(ws);
      await writeFile(ws.side('chromium'), `#!/bin/sh\ntouch '${ws.side('started')}'\nexit 1\n`);
      await chmod(ws.side('chromium'), 0o755);
      const env = { YOKE_CHROMIUM: ws.side('chromium') };
      // the control: a good flow starts the (fake) browser, which fails to come up: exit 2
      const good = await runYoke(ws, ['check'], { ...RUN, env });
      expect(good.exitCode, good.stderr).toBe(2);
      expect(good.stderr).toContain(`yoke: Chromium at ${ws.side('chromium')} did not start`);
      expect(existsSync(ws.side('started'))).toBe(true);
      await rm(ws.side('started'));
      await writeFile(ws.abs('journeys/smoke.yaml'), "steps:\n  - action: click\n    selector: '#save'\n    force: true\n");
      const bad = await runYoke(ws, ['check'], { ...RUN, env });
      expect(bad.exitCode, bad.stderr).toBe(2);
      expect(bad.stderr).toContain('journeys/smoke.yaml:4:5: error: step 1 (`click`) has no field `force`');
      expect(existsSync(ws.side('started'))).toBe(false);
      expect(existsSync(ws.abs('.loop/proof'))).toBe(false);
    } finally {
      await server.close();
    }
  }, TIMEOUT);
});
