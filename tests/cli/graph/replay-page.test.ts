// cli/graph/replay-page.ts: the `yoke replay --html` page, written by the built CLI from a golden
// journal, opened offline in headless Chromium (Debian's `chromium`, driven by playwright-core):
// the diagram is there, and a screenshot of it shows the run's path and the state it ended in.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runYoke } from '../../support/workspace.js';

const golden = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'golden', 'loop-crash-resume.v0.1.0.jsonl');
const scratch = mkdtempSync(join(tmpdir(), 'yoke-replay-page-'));
const page = join(scratch, 'run.html');
const CHROMIUM = '/usr/bin/chromium';
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

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
  });

  // Chromium comes from Debian (.ci/run installs it); outside CI the test is skipped without it.
  const browser = existsSync(CHROMIUM);
  it.skipIf(!browser && process.env.CI !== 'true')('shows the diagram with the run path in headless Chromium, offline', async () => {
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
      await tab.goto(pathToFileURL(page).href);
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
      expect(requests.filter((url) => !url.startsWith('file:') && !url.startsWith('data:'))).toEqual([]);
    } finally {
      await instance.close();
    }
  }, 60_000);
});
