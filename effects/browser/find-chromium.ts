// Finding the system's Chromium for journeys: yoke never downloads a browser.
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** Environment variable naming the browser to use (it is then the only place looked at). */
export const CHROMIUM_ENV = 'YOKE_CHROMIUM';

/** Debian's `chromium` first, then the names Chromium and Chrome have on other systems. */
const FIXED = ['/usr/bin/chromium'];
const NAMES = ['chromium', 'chromium-browser', 'google-chrome-stable', 'google-chrome'];

function isExecutableFile(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** The browser's path, or why there is none, as a sentence saying what to do; `fixed` are looked at before PATH. */
export function findChromium(env: NodeJS.ProcessEnv, fixed: readonly string[] = FIXED): { path: string } | { missing: string } {
  const chosen = env[CHROMIUM_ENV];
  if (chosen !== undefined && chosen !== '') {
    return isExecutableFile(chosen)
      ? { path: chosen }
      : { missing: `${CHROMIUM_ENV} names ${chosen}, which is not an executable file; point it at Chromium, or unset it to use the system's.` };
  }
  const onPath = (env.PATH ?? '').split(delimiter).filter((dir) => dir !== '').flatMap((dir) => NAMES.map((name) => join(dir, name)));
  const found = [...fixed, ...onPath].find(isExecutableFile);
  if (found !== undefined) return { path: found };
  return { missing: `no Chromium found (looked for /usr/bin/chromium and ${NAMES.join(', ')} on PATH); journeys need one: install it (Debian: apt-get install chromium) or set ${CHROMIUM_ENV} to its path.` };
}
