// cli/graph/replay-page.ts: the `yoke replay --html` page, written by the built CLI from a golden
// journal, opened offline in headless Chromium (Debian's `chromium`, driven by playwright-core):
// the diagram is there, and a screenshot of it shows the run's path and the state it ended in.
// A real parallel stories run's page shows its lanes side by side, and each lane's path and figures.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drawnEdges } from '../../../cli/graph/drawn-edges.js';
import { machineGraph } from '../../../cli/graph/machine-graph.js';
import { LIFECYCLES, type Lifecycle } from '../../../machines/lifecycles/registry.js';
import { makeParallelWorkspace } from '../../support/parallel-workspace.js';
import { runYoke, type Workspace } from '../../support/workspace.js';

const golden = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'golden', 'loop-crash-resume.v0.1.0.jsonl');
const scratch = mkdtempSync(join(tmpdir(), 'yoke-replay-page-'));
const page = join(scratch, 'run.html');
const CHROMIUM = '/usr/bin/chromium';
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

// Chromium comes from Debian (.ci/run installs it); outside CI the browser tests are skipped without it.
const inBrowser = it.skipIf(!existsSync(CHROMIUM) && process.env.CI !== 'true');

/** Open `file` in headless Chromium with the network off, let `look` read the tab; returns the URLs asked for beyond the file. */
async function openOffline(file: string, look: (tab: Page) => Promise<void>): Promise<string[]> {
  const { chromium } = await import('playwright-core');
  const instance = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    const context = await instance.newContext({ offline: true, viewport: { width: 1400, height: 1000 } });
    const tab = await context.newPage();
    const requests: string[] = [];
    tab.on('request', (request) => requests.push(request.url()));
    await tab.goto(pathToFileURL(file).href);
    await look(tab);
    return requests.filter((url) => !url.startsWith('file:') && !url.startsWith('data:'));
  } finally {
    await instance.close();
  }
}

/** Runs in the page: decode a PNG and count the pixels of the path color and of the end state's fill. */
const COUNT_COLORS = `async (png) => {
  const image = new Image();
  image.src = 'data:image/png;base64,' + png;
  await image.decode();
  const canvas = document.createElement('canvas');
  canvas.width = image.width;
  canvas.height = image.height;
  const context = canvas.getContext('2d');
  context.drawImage(image, 0, 0);
  const data = context.getImageData(0, 0, image.width, image.height).data;
  let path = 0;
  let end = 0;
  for (let i = 0; i < data.length; i += 4) {
    const r = data[i], g = data[i + 1], b = data[i + 2];
    if (Math.abs(r - 0x25) < 24 && Math.abs(g - 0x63) < 24 && Math.abs(b - 0xeb) < 24) path += 1;
    if (Math.abs(r - 0xdc) < 6 && Math.abs(g - 0xfc) < 6 && Math.abs(b - 0xe7) < 6) end += 1;
  }
  return { path, end };
}`;

beforeAll(async () => {
  const result = await runYoke({ path: scratch }, ['replay', '--journal', golden, '--html', page]);
  expect(result.exitCode, result.stderr).toBe(0);
  expect(result.stderr).toMatch(/wrote .*run\.html \(\d+ steps of run \w+\); it works offline/);
});

describe('yoke replay --html', () => {
  it('writes one self-contained page: diagram, per-state table, timeline, nothing to fetch', () => {
    const html = readFileSync(page, 'utf8');
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain('<svg');
    expect(html).toMatch(/<table id="states">[\s\S]*<td>working<\/td><td class="num">4<\/td>/);
    expect(html).toMatch(/<code>AGENT_INTERRUPTED<\/code>/);
    expect(html).toMatch(/<code>journal\.repaired<\/code>/);
    expect(html).not.toMatch(/<script|<link|<img|@import|url\(/i);
    expect(html.match(/(?:src|href)="[^"#]/g) ?? []).toEqual([]);
    expect(html).not.toContain('<h2>Lanes</h2>');
  });

  inBrowser('shows the diagram with the run path in headless Chromium, offline', async () => {
    const requests = await openOffline(page, async (tab) => {
      const diagram = tab.locator('#diagram svg');
      await diagram.waitFor({ state: 'visible' });
      expect(await tab.locator('#diagram g.node').count()).toBeGreaterThan(10);
      // The path: arrows taken are drawn in the path color, the end state filled green.
      expect(await tab.locator('#diagram g.edge path[stroke="#2563eb"]').count()).toBeGreaterThan(10);
      expect(await tab.locator('[id="state:loop.done"] path[fill="#dcfce7"], [id="state:loop.done"] polygon[fill="#dcfce7"]').count()).toBe(1);
      // The screenshot itself holds both colors (decoded by the browser: no image library needed).
      const shot = await diagram.screenshot();
      const counts = await tab.evaluate<{ path: number; end: number }>(`(${COUNT_COLORS})(${JSON.stringify(shot.toString('base64'))})`);
      expect(counts.path).toBeGreaterThan(2000);
      expect(counts.end).toBeGreaterThan(500);
      // a run without parallel states has no Lanes section
      expect(await tab.locator('#lanes').count()).toBe(0);
    });
    expect(requests).toEqual([]);
  }, 60_000);
});

/** A table's cells as the reader sees them: text and class, per row. */
type Cells = Array<Array<{ text: string; className: string; color: string }>>;
const READ_TABLE = (id: string): string => `[...document.querySelectorAll('#${id} tr')].map((row) => [...row.cells].map((cell) => ({ text: cell.textContent.trim(), className: cell.className, color: getComputedStyle(cell).color })))`;

describe('yoke replay --html of a parallel stories run', () => {
  const lanesPage = join(scratch, 'parallel.html');
  let ws: Workspace | undefined;
  beforeAll(async () => {
    // three stories on two lanes: both lanes work at once, and one lane takes up the third story
    ws = await makeParallelWorkspace(['S1', 'S2', 'S3']);
    const run = await runYoke(ws, ['run', '--parallel', '2'], { timeoutMs: 150_000 });
    expect(run.exitCode, run.stderr).toBe(0);
    const result = await runYoke(ws, ['replay', '--html', lanesPage]);
    expect(result.exitCode, result.stderr).toBe(0);
  }, 180_000);
  afterAll(async () => {
    await ws?.cleanup();
  });

  it('has a Lanes section, and the timeline names only the regions a step changed', () => {
    const html = readFileSync(lanesPage, 'utf8');
    expect(html).toMatch(/<h2>Lanes<\/h2>\n<table id="lanes"><thead><tr><th class="num">seq<\/th><th class="num">time<\/th><th>event<\/th><th>lane1<\/th><th>lane2<\/th><th>integration<\/th><\/tr><\/thead>/);
    const timeline = html.slice(html.indexOf('<table id="timeline">'));
    // the worker's exit goes through the spec restore (new runs restore after every agent call)
    expect(timeline).toMatch(/<td>lane1 working → restoringAfterWorker<\/td><td><code>AGENT_EXITED<\/code>/);
    expect(timeline).toMatch(/<td>lane1 restoringAfterWorker → readingNotes<\/td><td><code>SPEC_RESTORED<\/code>/);
    expect(timeline).toMatch(/<td>lane\d committing → queued; integration idle → rebasing<\/td>/);
    expect(timeline).not.toMatch(/lane\d\.idle|integration\.idle/);
    expect(html).not.toMatch(/<script|<link|<img|@import|url\(/i);
  });

  it('counts each lane\'s states in the Per state table, and says why their times add up to more than the run\'s', () => {
    const html = readFileSync(lanesPage, 'utf8');
    const table = html.slice(html.indexOf('<table id="states">'), html.indexOf('<h2>Lanes</h2>'));
    const rows = new Map([...table.matchAll(/<tr><td>([^<]+)<\/td>((?:<td class="num">[^<]*<\/td>)+)<\/tr>/g)].map((match) => [match[1], [...(match[2] ?? '').matchAll(/<td class="num">([^<]*)<\/td>/g)].map((cell) => cell[1] ?? '')]));
    // the number columns: visits, time, effects, effect time, agent calls, …
    const visits = 0;
    const calls = 4;
    for (const lane of ['parallel.lane1.working', 'parallel.lane2.working']) {
      expect(Number(rows.get(lane)?.[visits]), lane).toBeGreaterThanOrEqual(1);
      expect(Number(rows.get(lane)?.[calls]), lane).toBeGreaterThanOrEqual(1);
    }
    expect(rows.get('parallel.integration.rebasing')?.[visits]).toBe('3');
    expect(rows.get('parallel')?.[visits]).toBe('1');
    expect([...rows.values()].reduce((total, cells) => total + Number(cells[calls]), 0)).toBe(3);
    expect(html).toMatch(/3 agent calls/);
    expect(html).toContain('<p class="meta" id="lane-times">Inside the parallel state each lane');
  });

  inBrowser('draws each lane\'s path on the diagram in headless Chromium', async () => {
    const stories = LIFECYCLES.stories as Lifecycle;
    const { edges } = drawnEdges(machineGraph('stories', stories.version, stories.machine));
    const edgeId = (source: string, event: string, target: string) => edges.find((e) => e.source === `stories.${source}` && e.event === event && e.target === `stories.${target}`)?.id ?? '?';
    await openOffline(lanesPage, async (tab) => {
      await tab.locator('#diagram svg').waitFor({ state: 'visible' });
      const taken = (id: string) => tab.locator(`#diagram g.edge[id="${id}"] path[stroke="#2563eb"]`).count();
      expect(await taken(edgeId('parallel.lane1.working', 'AGENT_EXITED', 'parallel.lane1.restoringAfterWorker'))).toBe(1);
      expect(await taken(edgeId('parallel.lane2.working', 'AGENT_EXITED', 'parallel.lane2.restoringAfterWorker'))).toBe(1);
      expect(await taken(edgeId('parallel.lane1.working', 'AGENT_EXITED', 'parallel.lane1.readingNotes'))).toBe(0);
      expect(await taken(edgeId('parallel.integration.clock', 'CLOCK_READ', 'parallel.integration.landing'))).toBe(1);
      const filled = (id: string) => tab.locator(`[id="state:${id}"] path[fill="#dbeafe"], [id="state:${id}"] polygon[fill="#dbeafe"]`).count();
      expect(await filled('stories.parallel.lane1.working')).toBe(1);
      expect(await filled('stories.parallel.integration.rebasing')).toBe(1);
      expect(await tab.locator('[id="state:stories.parallel.lane1.working"]').textContent()).toMatch(/working\s*\d+× · [\d.]+m?s\s*\d call/);
      // a lane the run had no story for stays grey; the parallel state's box says it was entered once
      expect(await filled('stories.parallel.lane3.working')).toBe(0);
      expect(await tab.locator('g.cluster[id="state:stories.parallel"]').textContent()).toMatch(/parallel\s*1× · /);
    });
  }, 60_000);

  inBrowser('shows the lanes side by side in headless Chromium: each lane\'s story and state, the unchanged ones greyed', async () => {
    const requests = await openOffline(lanesPage, async (tab) => {
      await tab.locator('#lanes').waitFor({ state: 'visible' });
      const [head = [], ...rows] = await tab.evaluate<Cells>(READ_TABLE('lanes'));
      expect(head.map((cell) => cell.text)).toEqual(['seq', 'time', 'event', 'lane1', 'lane2', 'integration']);
      const lane = (row: Cells[number], column: 'lane1' | 'lane2' | 'integration') => row[head.findIndex((cell) => cell.text === column)] ?? { text: '', className: '', color: '' };
      // a row where both lanes work at once, one changed by the step, the other greyed
      const both = rows.find((row) => lane(row, 'lane1').text === 'S1 working' && lane(row, 'lane2').text === 'S2 working');
      expect(both, 'a row with S1 and S2 both working').toBeDefined();
      const cells = [lane(both!, 'lane1'), lane(both!, 'lane2')];
      expect(cells.map((cell) => cell.className).sort()).toEqual(['changed', 'same']);
      const [changed, same] = cells.sort((a, b) => a.className.localeCompare(b.className));
      expect(same!.color).not.toBe(changed!.color);
      // the integration lane takes each candidate in turn, named by its story
      const integration = rows.map((row) => lane(row, 'integration')).filter((cell) => cell.className === 'changed').map((cell) => cell.text);
      for (const story of ['S1', 'S2', 'S3']) expect(integration).toEqual(expect.arrayContaining([`${story} rebasing`, `${story} landing`]));
      // every story a lane cell names is the one its step worked on: the timeline's check of that story
      const timeline = new Map((await tab.evaluate<Cells>(READ_TABLE('timeline'))).map((row) => [row[0]?.text, row.map((cell) => cell.text).join(' | ')]));
      const reported = rows.flatMap((row) => [lane(row, 'lane1'), lane(row, 'lane2')].filter((cell) => cell.className === 'changed' && cell.text.endsWith(' reporting')).map((cell) => ({ seq: row[0]?.text, story: cell.text.split(' ')[0] })));
      expect(reported.map((entry) => entry.story).sort()).toEqual(['S1', 'S2', 'S3']);
      for (const { seq, story } of reported) expect(timeline.get(seq)).toContain(`check.run accept ${story}#1 → pass`);
    });
    expect(requests).toEqual([]);
  }, 60_000);
});
