// effects/browser/find-chromium.ts: the system's browser, or a sentence saying what to do.
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_ENV, findChromium } from '../../../effects/browser/find-chromium.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'yoke-chromium-'));
  await writeFile(join(dir, 'chromium-browser'), '#!/bin/sh\n');
  await chmod(join(dir, 'chromium-browser'), 0o755);
  await writeFile(join(dir, 'not-executable'), '');
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('findChromium', () => {
  it(`${CHROMIUM_ENV} is the only place looked at when set`, () => {
    expect(findChromium({ [CHROMIUM_ENV]: join(dir, 'chromium-browser'), PATH: '' })).toEqual({ path: join(dir, 'chromium-browser') });
    const missing = findChromium({ [CHROMIUM_ENV]: join(dir, 'nowhere'), PATH: dir });
    expect(missing).toEqual({ missing: expect.stringContaining(`${CHROMIUM_ENV} names ${join(dir, 'nowhere')}, which is not an executable file`) as unknown });
    expect(findChromium({ [CHROMIUM_ENV]: join(dir, 'not-executable') })).toHaveProperty('missing');
  });

  it('otherwise the fixed places (Debian\'s /usr/bin/chromium), then the usual names on PATH', () => {
    expect(findChromium({ PATH: `/nonexistent:${dir}` }, [join(dir, 'absent'), join(dir, 'not-executable')])).toEqual({ path: join(dir, 'chromium-browser') });
    expect(findChromium({ PATH: dir }, [join(dir, 'chromium-browser')])).toEqual({ path: join(dir, 'chromium-browser') });
  });

  it('nothing found: say where it looked and what to do', () => {
    expect(findChromium({ PATH: '/nonexistent' }, [])).toEqual({ missing: expect.stringMatching(/no Chromium found .*apt-get install chromium.* YOKE_CHROMIUM/) as unknown });
  });
});
