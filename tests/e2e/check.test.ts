// `yoke check` (issue 17, DESIGN §12) through the built CLI: acceptance criteria run with no agent,
// artifacts bound by hash, and journeys driven in the system's headless Chromium against a real
// local web application. The evidence lands in .loop/proof/<label>/ and nowhere else, it never
// holds a secret, and a check that cannot start keeps the earlier evidence.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startJourneyServer, type JourneyServer } from '../support/journey-server.js';
import { snapshotTree } from '../support/tree-snapshot.js';
import { makeWorkspace, runYoke, startYoke, yokeBin, type Workspace } from '../support/workspace.js';

const TIMEOUT = 120_000;
const RUN = { timeoutMs: 100_000 };
const SECRET = 'correct-horse-battery-staple-7391';
const CHROMIUM = '/usr/bin/chromium';
const FFMPEG = '/usr/bin/ffmpeg';

const PROFILE = `# sign in with a name and the secret, save, and find the name again after a reload
path: /
steps:
  - action: fill
    selector: '#name'
    value: Ada Lovelace
  - action: fill
    selector: '#password'
    value-env: SMOKE_PASSWORD
  - action: click
    selector: '#save'
  - action: expect-url
    url: /saved
  - action: expect-text
    selector: '#saved'
    text: Saved Ada   Lovelace
    exact: true
  - action: reload
  - action: expect-visible
    selector: '#back'
`;
const BROKEN = `steps:
  - action: click
    selector: '#save'
  - action: expect-text
    selector: '#saved'
    text: Saved Nobody
    exact: true
    timeout: 2s
  - action: reload
  - action: expect-visible
    selector: '#back'
`;
const NOISY = `path: /console-error
steps:
  - action: expect-visible
    selector: '#ok'
`;

interface Report {
  status: string;
  criteria: { name: string; kind: string; status: string; exitCode: number | null; outputTail: string | null }[];
  artifacts: { path: string; status: string; reason: string | null; sha256: string | null; before: { sha256: string | null }; after: { sha256: string | null } }[];
  journeys: { name: string; status: string; category: string | null; navigation: { status: string }; steps: { index: number; action: string; status: string; category: string | null }[]; screenshot: string | null; video: string | null }[];
  source: { before: string; after: string; matches: boolean };
  config: { digest: string; flows: { journey: string; sha256: string }[] };
  versions: { node: string; browser: string | null };
}

const workspaces: Workspace[] = [];
afterAll(async () => {
  for (const ws of workspaces) await ws.cleanup();
});

/** A goal project whose `.loop/.gitignore` is the one `yoke init` writes; `dist/` is ignored build output. */
async function project(conf: string[], files: Record<string, string> = {}): Promise<Workspace> {
  const ws = await makeWorkspace({
    '.loop/yoke.conf': `${['mode goal', 'agent claude', ...conf].join('\n')}\n`,
    '.loop/.gitignore': '.journal/\n.stash/\nproof/\n',
    '.loop/goal.md': 'Ship it.\n',
    '.gitignore': 'dist/\n',
    'dist/app.js': 'console.log("v1")\n',
    ...files,
  });
  workspaces.push(ws);
  return ws;
}

function report(ws: Workspace, label = 'latest'): Report {
  return JSON.parse(readFileSync(ws.abs(`.loop/proof/${label}/report.json`), 'utf8')) as Report;
}

/** Every file under `dir`, as project-relative path → bytes. */
function filesUnder(dir: string, root: string): Map<string, Buffer> {
  const found = new Map<string, Buffer>();
  const walk = (at: string): void => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) found.set(relative(root, path), readFileSync(path));
    }
  };
  if (existsSync(dir)) walk(dir);
  return found;
}

const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

const browser = existsSync(CHROMIUM);
describe.skipIf(!browser && process.env.CI !== 'true')('yoke check: journeys in headless Chromium against a real local application', () => {
  let server: JourneyServer;
  let ws: Workspace;
  let first: Awaited<ReturnType<typeof runYoke>>;
  let loopBefore: Awaited<ReturnType<typeof snapshotTree>>;
  beforeAll(async () => {
    server = await startJourneyServer();
    ws = await project([
      'accept tests echo "tests ok, token=$SMOKE_PASSWORD"',
      'journey profile journeys/profile.yaml',
      'journey broken journeys/broken.yaml',
      'journey noisy journeys/noisy.yaml',
      'artifact dist/app.js tests profile',
      `base-url ${server.url}`,
    ], { 'journeys/profile.yaml': PROFILE, 'journeys/broken.yaml': BROKEN, 'journeys/noisy.yaml': NOISY });
    loopBefore = await snapshotTree(ws.abs('.loop'));
    first = await runYoke(ws, ['check'], { ...RUN, env: { SMOKE_PASSWORD: SECRET } });
  }, TIMEOUT);
  afterAll(() => server.close());

  it('a failing journey fails the check (exit 1); every criterion ran, in order, and says how it went', () => {
    expect(first.exitCode, first.stderr).toBe(1);
    const lines = first.stdout.split('\n');
    expect(lines.find((line) => line.startsWith('pass  criterion tests'))).toMatch(/exit 0/);
    expect(lines.find((line) => line.startsWith('pass  journey profile'))).toMatch(/7 steps; \.loop\/proof\/latest\/profile\.png/);
    expect(lines.find((line) => line.startsWith('FAIL  journey broken'))).toMatch(/step 2 \(expect-text\): step-failed, 2 skipped; \.loop\/proof\/latest\/broken\.png/);
    expect(lines.find((line) => line.startsWith('FAIL  journey noisy'))).toMatch(/opening the page: console-error, 1 skipped/);
    expect(lines.find((line) => line.startsWith('pass  artifact dist/app.js'))).toMatch(/bound to tests, profile/);
    expect(first.stdout).toContain('check failed in ');
    expect(first.stderr).toMatch(/yoke: check latest: journey profile: journeys\/profile\.yaml \(7 steps\)\n[\s\S]*journey broken[\s\S]*journey noisy/);
    expect(report(ws).criteria.map((criterion) => [criterion.name, criterion.status])).toEqual([['tests', 'passed'], ['profile', 'passed'], ['broken', 'failed'], ['noisy', 'failed']]);
  });

  it('a passing journey has a screenshot that exists and is a non-empty PNG', () => {
    const [profile] = report(ws).journeys;
    expect(profile).toMatchObject({ name: 'profile', status: 'passed', category: null, navigation: { status: 'passed' }, screenshot: 'profile.png', video: null });
    expect(profile?.steps.map((step) => step.status)).toEqual(Array(7).fill('passed'));
    const png = readFileSync(ws.abs('.loop/proof/latest/profile.png'));
    expect(png.length).toBeGreaterThan(1000);
    expect(png.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
    // the flow really drove the application: the form reached the server with both fills
    expect(server.received.map((form) => form.get('name'))).toContain('Ada Lovelace');
    expect(server.received.map((form) => form.get('password'))).toContain(SECRET);
  });

  it('a failing expect-text stops its flow: the rest are skipped, with a screenshot (and a video when ffmpeg is there)', () => {
    const broken = report(ws).journeys[1];
    expect(broken).toMatchObject({ name: 'broken', status: 'failed', category: 'step-failed', screenshot: 'broken.png' });
    expect(broken?.steps.map((step) => [step.index, step.action, step.status, step.category])).toEqual([
      [1, 'click', 'passed', null], [2, 'expect-text', 'failed', 'step-failed'], [3, 'reload', 'skipped', null], [4, 'expect-visible', 'skipped', null],
    ]);
    expect(statSync(ws.abs('.loop/proof/latest/broken.png')).size).toBeGreaterThan(0);
    if (existsSync(FFMPEG)) {
      expect(broken?.video).toBe('broken.webm');
      expect(readFileSync(ws.abs('.loop/proof/latest/broken.webm')).subarray(0, 4).toString('hex')).toBe('1a45dfa3');
    }
  });

  it('a console error fails its flow, and later flows still run after a failed one', () => {
    // the page logs its error while it loads: opening it fails, and its one step is skipped
    expect(report(ws).journeys[2]).toMatchObject({
      name: 'noisy', status: 'failed', category: 'console-error', navigation: { status: 'failed', category: 'console-error' }, steps: [{ status: 'skipped' }], screenshot: 'noisy.png',
    });
  });

  it('the value-env secret, the fill values, selectors and expected texts are in no file yoke wrote', () => {
    const written = filesUnder(ws.abs('.loop'), ws.path);
    expect([...written.keys()].filter((path) => path.startsWith('.loop/proof/')).sort()).toEqual([
      '.loop/proof/latest/broken.png', ...(existsSync(FFMPEG) ? ['.loop/proof/latest/broken.webm'] : []),
      '.loop/proof/latest/noisy.png', ...(existsSync(FFMPEG) ? ['.loop/proof/latest/noisy.webm'] : []), '.loop/proof/latest/profile.png', '.loop/proof/latest/report.json',
    ]);
    for (const [path, bytes] of written) expect(bytes.includes(SECRET), path).toBe(false);
    const text = readFileSync(ws.abs('.loop/proof/latest/report.json'), 'utf8');
    for (const leak of ['Ada Lovelace', '#name', '#password', '#saved', 'Saved Nobody', 'Saved Ada']) expect(text).not.toContain(leak);
    // the criterion printed the secret: its tail keeps the line, not the value
    expect(report(ws).criteria[0]?.outputTail).toBe('tests ok, token=[redacted]\n');
  });

  it('binds the artifact, the source tree, the config digest and the versions', () => {
    const r = report(ws);
    const app = sha256(readFileSync(ws.abs('dist/app.js')));
    expect(r.artifacts).toEqual([expect.objectContaining({ path: 'dist/app.js', status: 'passed', reason: null, sha256: app, before: expect.objectContaining({ sha256: app }) as unknown, after: expect.objectContaining({ sha256: app }) as unknown })]);
    expect(r.source.matches).toBe(true);
    expect(r.source.before).toMatch(/^[0-9a-f]{40}$/);
    expect(r.config.digest).toMatch(/^[0-9a-f]{64}$/);
    expect(r.config.flows).toEqual([
      { journey: 'profile', sha256: sha256(Buffer.from(PROFILE)) }, { journey: 'broken', sha256: sha256(Buffer.from(BROKEN)) }, { journey: 'noisy', sha256: sha256(Buffer.from(NOISY)) },
    ]);
    expect(r.versions.node).toBe(process.version);
    expect(r.versions.browser).toMatch(/^\d+\.\d+/);
  });

  it('outside a run, yoke check writes only its proof folder: no journal, nothing else in .loop/ or the project', async () => {
    expect(await snapshotTree(ws.abs('.loop'), ['proof'])).toEqual(loopBefore);
    expect(await ws.git(['status', '--porcelain', '--untracked-files=all'])).toBe('');
  });

  it('without ffmpeg a failed journey still has its screenshot, and yoke says why there is no video', async () => {
    const result = await runYoke(ws, ['check', '--label', 'no-video'], { ...RUN, env: { SMOKE_PASSWORD: SECRET, YOKE_FFMPEG: '/nonexistent/ffmpeg' } });
    expect(result.exitCode, result.stderr).toBe(1);
    expect(result.stderr).toContain('yoke: warning: no failure video: YOKE_FFMPEG names /nonexistent/ffmpeg, which does not exist');
    expect(report(ws, 'no-video').journeys[1]).toMatchObject({ name: 'broken', status: 'failed', screenshot: 'broken.png', video: null });
    expect(readdirSync(ws.abs('.loop/proof/no-video')).sort()).toEqual(['broken.png', 'noisy.png', 'profile.png', 'report.json']);
  }, TIMEOUT);

  it('--label and --json: a passing check exits 0 and prints the report with its path and digest', async () => {
    await ws.write('.loop/yoke.conf', `mode goal\nagent claude\naccept tests true\njourney profile journeys/profile.yaml\nbase-url ${server.url}/\n`);
    const result = await runYoke(ws, ['check', '--label', 'release-1.0', '--json'], { ...RUN, env: { SMOKE_PASSWORD: SECRET } });
    expect(result.exitCode, result.stderr).toBe(0);
    const printed = JSON.parse(result.stdout) as { path: string; sha256: string; exitCode: number; report: Report };
    expect(printed).toMatchObject({ path: '.loop/proof/release-1.0/report.json', exitCode: 0, report: { status: 'passed' } });
    expect(printed.sha256).toBe(sha256(readFileSync(ws.abs(printed.path))));
    expect(report(ws, 'release-1.0').journeys[0]?.screenshot).toBe('profile.png');
    expect(result.stdout).not.toContain(SECRET);
    // the other label's evidence is untouched
    expect(report(ws).status).toBe('failed');
  }, TIMEOUT);

  it('a bad flow file exits 2 before the browser starts, naming file:line for each problem; the evidence is kept', async () => {
    const kept = readFileSync(ws.abs('.loop/proof/latest/report.json'));
    await ws.write('.loop/yoke.conf', `mode loop\nagent claude\njourney a journeys/a.yaml\njourney b journeys/b.yaml\njourney c journeys/c.yaml\nbase-url ${server.url}\n`);
    await ws.write('journeys/a.yaml', "steps:\n  - action: clik\n    selector: '#save'\n");
    await ws.write('journeys/b.yaml', "steps:\n  - action: click\n    selector: '#save'\n    force: true\n");
    await ws.write('journeys/c.yaml', `steps:\n${'  - action: reload\n'.repeat(51)}`);
    const result = await runYoke(ws, ['check'], RUN);
    expect(result.exitCode, result.stderr).toBe(2);
    expect(result.stderr).toContain('yoke: journeys/a.yaml:2:13: error: `clik` is not a step action');
    expect(result.stderr).toContain('journeys/b.yaml:4:5: error: step 1 (`click`) has no field `force`');
    expect(result.stderr).toContain('journeys/c.yaml:2:3: error: a flow has at most 50 steps; this one has 51');
    expect(result.stderr).not.toMatch(/^\s+at /m);
    expect(readFileSync(ws.abs('.loop/proof/latest/report.json'))).toEqual(kept);
    expect(readdirSync(ws.abs('.loop/proof')).sort()).toEqual(['latest', 'no-video', 'release-1.0']);
  }, TIMEOUT);

  it('SIGINT during a journey closes the browser, exits 130 and keeps the earlier evidence', async () => {
    const slow = await project(['journey slow journeys/slow.yaml', `base-url ${server.url}`, 'accept tests true'], {
      'journeys/slow.yaml': "steps:\n  - action: expect-visible\n    selector: '#never'\n    timeout: 30s\n",
      '.loop/proof/latest/report.json': '{"kept":true}\n',
    });
    const running = startYoke(slow, ['check'], RUN);
    await new Promise<void>((resolve) => {
      running.stderr?.on('data', (chunk: Buffer) => {
        if (chunk.toString().includes('journey slow: journeys/slow.yaml (1 step)')) resolve();
      });
    });
    running.kill('SIGINT');
    const result = await running;
    expect(result.exitCode, result.stderr).toBe(130);
    expect(await slow.read('.loop/proof/latest/report.json')).toBe('{"kept":true}\n');
    expect(readdirSync(slow.abs('.loop/proof'))).toEqual(['latest']);
  }, TIMEOUT);

  it('an unset value-env variable and a base URL that does not answer exit 2; the evidence is kept', async () => {
    const kept = readFileSync(ws.abs('.loop/proof/latest/report.json'));
    await ws.write('.loop/yoke.conf', `mode loop\nagent claude\njourney profile journeys/profile.yaml\nbase-url ${server.url}\n`);
    const unset = await runYoke(ws, ['check'], RUN);
    expect(unset.exitCode, unset.stderr).toBe(2);
    expect(unset.stderr).toContain('yoke: journey `profile` (journeys/profile.yaml) step 2 fills from SMOKE_PASSWORD, which is not set');
    const closed = await startJourneyServer();
    await closed.close();
    await ws.write('.loop/yoke.conf', `mode loop\nagent claude\njourney profile journeys/profile.yaml\nbase-url ${closed.url}\n`);
    const unreachable = await runYoke(ws, ['check'], { ...RUN, env: { SMOKE_PASSWORD: SECRET } });
    expect(unreachable.exitCode, unreachable.stderr).toBe(2);
    expect(unreachable.stderr).toMatch(new RegExp(`yoke: base-url ${closed.url} does not answer \\(ECONNREFUSED\\); start the application under test first`));
    expect(readFileSync(ws.abs('.loop/proof/latest/report.json'))).toEqual(kept);
  }, TIMEOUT);
});

describe('yoke check: criteria and artifact bindings', () => {
  it('an artifact rebuilt between the two snapshots fails its binding (exit 1), though every criterion passed', async () => {
    const ws = await project(['accept build printf \'console.log("v2")\\n\' > dist/app.js', 'accept tests true', 'artifact dist/app.js build tests']);
    const v1 = sha256(readFileSync(ws.abs('dist/app.js')));
    const result = await runYoke(ws, ['check'], RUN);
    expect(result.exitCode, result.stderr).toBe(1);
    const r = report(ws);
    expect(r.criteria.map((criterion) => criterion.status)).toEqual(['passed', 'passed']);
    expect(r.artifacts[0]).toMatchObject({ status: 'failed', reason: 'changed', sha256: v1, before: { sha256: v1 }, after: { sha256: sha256(readFileSync(ws.abs('dist/app.js'))) } });
    expect(r.artifacts[0]?.after.sha256).not.toBe(v1);
    expect(r.source.matches).toBe(true);
    expect(result.stdout).toMatch(/^FAIL {2}artifact dist\/app\.js: sha256 [0-9a-f]{12}…, 18 bytes \(changed\)$/m);
    expect(result.stdout).toMatch(/^check failed in /m);
  }, TIMEOUT);

  it('a symlinked or missing artifact fails its binding; a failed criterion fails the bindings naming it', async () => {
    const ws = await project(['accept tests true', 'accept lint false', 'artifact dist/link.js tests', 'artifact dist/none.js tests', 'artifact dist/app.js lint']);
    symlinkSync('app.js', ws.abs('dist/link.js'));
    const result = await runYoke(ws, ['check'], RUN);
    expect(result.exitCode, result.stderr).toBe(1);
    expect(report(ws).artifacts.map((artifact) => [artifact.path, artifact.reason])).toEqual([['dist/link.js', 'symlink'], ['dist/none.js', 'missing'], ['dist/app.js', 'criterion-failed']]);
    expect(report(ws).criteria[1]).toMatchObject({ name: 'lint', status: 'failed', exitCode: 1 });
  }, TIMEOUT);

  it('a source file changed during the check fails it (exit 1) even when everything passed', async () => {
    const ws = await project(['accept tests echo generated > src-generated.txt']);
    const result = await runYoke(ws, ['check'], RUN);
    expect(result.exitCode, result.stderr).toBe(1);
    expect(report(ws)).toMatchObject({ status: 'failed', criteria: [{ status: 'passed' }], source: { matches: false } });
    expect(result.stdout).toMatch(/^FAIL {2}source tree changed during the check/m);
  }, TIMEOUT);

  it('everything passing with evidence exits 0; a second check replaces the evidence whole', async () => {
    const ws = await project(['accept tests true', 'artifact dist/app.js tests']);
    expect((await runYoke(ws, ['check'], RUN)).exitCode).toBe(0);
    writeFileSync(ws.abs('.loop/proof/latest/stale.png'), 'old');
    const again = await runYoke(ws, ['check'], RUN);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(readdirSync(ws.abs('.loop/proof/latest'))).toEqual(['report.json']);
    expect(readdirSync(ws.abs('.loop/proof'))).toEqual(['latest']);
  }, TIMEOUT);

  it('a missing browser exits 2 and says so; the evidence is kept', async () => {
    const ws = await project(['accept tests true', 'journey smoke journeys/smoke.yaml', 'base-url http://127.0.0.1:9'], { 'journeys/smoke.yaml': NOISY });
    await ws.write('.loop/proof/latest/report.json', '{"kept":true}\n');
    const result = await runYoke(ws, ['check'], { ...RUN, env: { YOKE_CHROMIUM: '/nonexistent/chromium' } });
    expect(result.exitCode, result.stderr).toBe(2);
    expect(result.stderr).toBe('yoke: YOKE_CHROMIUM names /nonexistent/chromium, which is not an executable file; point it at Chromium, or unset it to use the system\'s.');
    expect(await ws.read('.loop/proof/latest/report.json')).toBe('{"kept":true}\n');
  }, TIMEOUT);

  it('refuses with exit 2: no criterion, a bad label, a config error (file:line:column), a check inside a check', async () => {
    const loop = await makeWorkspace({ '.loop/yoke.conf': 'mode loop\nagent claude\n' });
    workspaces.push(loop);
    const none = await runYoke(loop, ['check'], RUN);
    expect(none.exitCode).toBe(2);
    expect(none.stderr).toMatch(/^yoke: \.loop\/yoke\.conf declares no acceptance criterion; add a line like `accept tests npm test`/);
    const ws = await project(['accept tests true', 'artifact dist/app.js tets']);
    const config = await runYoke(ws, ['check'], RUN);
    expect(config.exitCode).toBe(2);
    expect(config.stderr).toMatch(/^yoke: \.loop\/yoke\.conf:4:22: error: `artifact` names criterion `tets`, which is not declared .*did you mean `tests`\?/);
    const label = await runYoke(ws, ['check', '--label', '../up'], RUN);
    expect(label.exitCode).toBe(2);
    expect(label.stderr).toMatch(/--label `\.\.\/up` is not a label/);
    const nested = await runYoke(ws, ['check'], { ...RUN, env: { YOKE_CHECK: 'outer' } });
    expect(nested.exitCode).toBe(2);
    expect(nested.stderr).toMatch(/a criterion of the check `outer` runs `yoke check` itself/);
    expect(existsSync(ws.abs('.loop/proof'))).toBe(false);
    expect(existsSync(ws.abs('.loop/.journal'))).toBe(false);
  }, TIMEOUT);

  it('a criterion that runs `yoke check` fails instead of recursing', async () => {
    const ws = await project([`accept nested ${process.execPath} ${yokeBin} check`]);
    const result = await runYoke(ws, ['check'], RUN);
    expect(result.exitCode, result.stderr).toBe(1);
    expect(report(ws).criteria[0]).toMatchObject({ name: 'nested', status: 'failed', exitCode: 2 });
    expect(report(ws).criteria[0]?.outputTail).toContain('runs `yoke check` itself');
  }, TIMEOUT);

  it('warns when git would commit the proof folder', async () => {
    const ws = await project(['accept tests true'], { '.loop/.gitignore': '.journal/\n.stash/\n' });
    const result = await runYoke(ws, ['check'], RUN);
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain('yoke: warning: .loop/proof/ is not ignored by git, so a commit would include the evidence; add `proof/` to .loop/.gitignore');
  }, TIMEOUT);

  it('SIGINT stops the criterion, exits 130, and keeps the earlier evidence (no scratch folder left)', async () => {
    const ws = await project(['accept slow sleep 30']);
    await ws.write('.loop/proof/latest/report.json', '{"kept":true}\n');
    const running = startYoke(ws, ['check'], RUN);
    await new Promise<void>((resolve) => {
      running.stderr?.on('data', (chunk: Buffer) => {
        if (chunk.toString().includes('criterion slow: sleep 30')) resolve();
      });
    });
    running.kill('SIGINT');
    const result = await running;
    expect(result.exitCode, result.stderr).toBe(130);
    expect(await ws.read('.loop/proof/latest/report.json')).toBe('{"kept":true}\n');
    expect(readdirSync(ws.abs('.loop/proof'))).toEqual(['latest']);
  }, TIMEOUT);
});
