// `yoke inspect` through the built CLI: the list, every format for every lifecycle, the Stately
// export, usage errors, and an HTML page that needs nothing from the network.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { LIFECYCLE_REGISTRY } from '../../../machines/lifecycles/registry.js';
import { expectRefusal } from '../../support/cli-expect.js';
import { runYoke, yokeBin } from '../../support/workspace.js';

const names = LIFECYCLE_REGISTRY.map((l) => l.name);
const scratch = mkdtempSync(join(tmpdir(), 'yoke-inspect-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const yoke = (args: string[]) => runYoke({ path: scratch }, args);

describe('yoke inspect', () => {
  it('lists every lifecycle (outside any project), as text and JSON', async () => {
    const text = await yoke(['inspect']);
    expect(text.exitCode, text.stderr).toBe(0);
    for (const name of names) expect(text.stdout).toMatch(new RegExp(`^${name} +v\\d+ +\\d+ states, \\d+ transitions$`, 'm'));
    const json = await yoke(['inspect', '--json']);
    expect((JSON.parse(json.stdout) as Array<{ name: string }>).map((m) => m.name)).toEqual(names);
  });

  it('prints every lifecycle (the formats themselves are tested in tests/cli/graph/)', async () => {
    for (const name of names) expect(JSON.parse((await yoke(['inspect', name, '--format', 'json'])).stdout)).toMatchObject({ name, root: name });
  });

  it('prints Mermaid by default, DOT, and the Stately export', async () => {
    expect((await yoke(['inspect', 'loop'])).stdout).toMatch(/^stateDiagram-v2\n/);
    expect((await yoke(['inspect', 'loop', '--format', 'dot'])).stdout).toMatch(/^digraph "loop" \{/);
    expect((await yoke(['inspect', 'loop', '--stately'])).stdout).toMatch(/^createMachine\(\{\n {2}"id": "loop"/);
  });

  it('writes a self-contained HTML page with the diagram inline', async () => {
    const file = join(scratch, 'loop.html');
    const result = await yoke(['inspect', 'loop', '--format', 'html', '--output', file]);
    expect(result.exitCode, result.stderr).toBe(0);
    const html = readFileSync(file, 'utf8');
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain('<svg');
    expect(html).toContain('id="state:loop.working"');
    // Nothing to fetch: no scripts, stylesheets or images from anywhere.
    expect(html).not.toMatch(/<script|<link|<img|@import|url\(/i);
    expect(html.match(/(?:src|href)="[^"#]/g) ?? []).toEqual([]);
  });

  it('hands a slow reader the whole document, not the first 64 KiB a pipe holds', async () => {
    const file = join(scratch, 'stories.json');
    expect((await yoke(['inspect', 'stories', '--format', 'json', '--output', file])).exitCode).toBe(0);
    const whole = readFileSync(file, 'utf8');
    expect(whole.length).toBeGreaterThan(3 * 65_536);
    // The reader starts only after yoke has finished writing and would have exited.
    const piped = await execa('sh', ['-c', `"${process.execPath}" "${yokeBin}" inspect stories --format json | (sleep 1; cat)`], { cwd: scratch });
    expect(piped.stdout.length).toBe(whole.trimEnd().length);
    expect(JSON.parse(piped.stdout)).toMatchObject({ name: 'stories' });
  });

  it('refuses an unknown machine or format with exit 2', async () => {
    expectRefusal(await yoke(['inspect', 'nope']), 2, /there is no nope machine; choose one of: loop/);
    const badFormat = await yoke(['inspect', 'loop', '--format', 'png']);
    expect(badFormat.exitCode).toBe(2);
  });
});
