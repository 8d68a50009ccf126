// The private Gemini CLI home of a gated call: the user's settings plus yoke's BeforeTool hook, the
// rest of the user's ~/.gemini linked, and the user's own files never touched.
import { lstatSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { prepareGeminiGateHome, withGateHook } from '../../../effects/gate/gemini-gate-home.js';

const homes: string[] = [];
afterAll(async () => Promise.all(homes.map((home) => rm(home, { recursive: true, force: true }))));

describe('the private gemini home of a gated call', () => {
  it('keeps the user\'s settings and hooks, appends the gate to BeforeTool, links the other entries, and leaves the user\'s files as they were', async () => {
    const home = mkdtempSync(join(tmpdir(), 'yoke-user-home-'));
    homes.push(home);
    const settings = { security: { auth: { selectedType: 'gemini-api-key' } }, hooks: { BeforeTool: [{ matcher: 'x', hooks: [] }], AfterTool: [] } };
    await mkdir(join(home, '.gemini'));
    await writeFile(join(home, '.gemini', 'settings.json'), JSON.stringify(settings));
    await writeFile(join(home, '.gemini', 'oauth_creds.json'), '{}');
    const made = await prepareGeminiGateHome('yoke gate --agent gemini', { HOME: home });
    expect(made.warning).toBeNull();
    expect(statSync(made.dir).mode & 0o777).toBe(0o700);
    const written = JSON.parse(readFileSync(join(made.dir, '.gemini', 'settings.json'), 'utf8')) as typeof settings;
    expect(written.security).toEqual(settings.security);
    expect(written.hooks.AfterTool).toEqual([]);
    expect(written.hooks.BeforeTool).toEqual([{ matcher: 'x', hooks: [] }, { matcher: '*', hooks: [{ name: 'yoke-gate', type: 'command', command: 'yoke gate --agent gemini', timeout: 30_000 }] }]);
    expect(lstatSync(join(made.dir, '.gemini', 'oauth_creds.json')).isSymbolicLink()).toBe(true);
    expect(JSON.parse(await readFile(join(home, '.gemini', 'settings.json'), 'utf8'))).toEqual(settings);
    await made.cleanup();
    expect(() => statSync(made.dir)).toThrow();
    expect(readFileSync(join(home, '.gemini', 'oauth_creds.json'), 'utf8')).toBe('{}');
  });

  it('with unreadable user settings, installs the hook alone and says so', async () => {
    const home = mkdtempSync(join(tmpdir(), 'yoke-user-home-'));
    homes.push(home);
    await mkdir(join(home, '.gemini'));
    await writeFile(join(home, '.gemini', 'settings.json'), '{ not json');
    const made = await prepareGeminiGateHome('g', { HOME: home });
    expect(made.warning).toContain('could not be read');
    expect(withGateHook({}, 'g')).toEqual(JSON.parse(readFileSync(join(made.dir, '.gemini', 'settings.json'), 'utf8')));
    await made.cleanup();
  });
});
