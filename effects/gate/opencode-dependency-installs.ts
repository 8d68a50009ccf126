// Where OpenCode 1.18 would first install `@opencode-ai/plugin` before a gated call. At every start
// it installs that package into each of its config folders, and a call that loads a plugin (yoke's
// gate does) waits for those installs; one needs the network (offline it fails after about 70 s, and
// the call goes on). OpenCode skips a folder it cannot write, and one whose `node_modules/` exists
// and whose `package-lock.json` names every dependency of its `package.json` and the plugin package.
// Its config folders: `$XDG_CONFIG_HOME/opencode` (made when missing), each `.opencode/` from the
// project up to its git root, `~/.opencode/`, and `$OPENCODE_CONFIG_DIR`. Read from the 1.18.33 binary.
import { accessSync, constants, existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

const PLUGIN_PACKAGE = '@opencode-ai/plugin';

/** OpenCode's config folders for a call in `root` (`.opencode/` looked for up to the folder holding `.git`). */
export function opencodeConfigDirs(root: string, env: NodeJS.ProcessEnv): string[] {
  const home = env.HOME || homedir();
  const dirs = [join(env.XDG_CONFIG_HOME || join(home, '.config'), 'opencode')];
  for (let at = root; ; at = dirname(at)) {
    if (existsSync(join(at, '.opencode'))) dirs.push(join(at, '.opencode'));
    if (existsSync(join(at, '.git')) || dirname(at) === at) break;
  }
  if (existsSync(join(home, '.opencode'))) dirs.push(join(home, '.opencode'));
  if (env.OPENCODE_CONFIG_DIR) dirs.push(env.OPENCODE_CONFIG_DIR);
  return [...new Set(dirs)];
}

function dependencyNames(file: string, pick: (json: Record<string, unknown>) => unknown): string[] {
  try {
    const value = pick(JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>);
    if (typeof value !== 'object' || value === null) return [];
    const fields = value as Record<string, unknown>;
    return ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies']
      .flatMap((key) => (typeof fields[key] === 'object' && fields[key] !== null ? Object.keys(fields[key]) : []));
  } catch {
    return [];
  }
}

/** Whether OpenCode would install into `dir` at its next start (a missing folder it makes, then installs into). */
export function wouldInstall(dir: string): boolean {
  if (existsSync(dir)) {
    try {
      accessSync(dir, constants.W_OK);
    } catch {
      return false;
    }
  }
  if (!existsSync(join(dir, 'node_modules'))) return true;
  const wanted = [...dependencyNames(join(dir, 'package.json'), (json) => json), PLUGIN_PACKAGE];
  const locked = new Set(dependencyNames(join(dir, 'package-lock.json'), (json) => (json.packages as Record<string, unknown> | undefined)?.['']));
  return wanted.some((name) => !locked.has(name));
}

/** The config folders OpenCode would install into before a gated call in `root`. */
export function pendingOpencodeInstalls(root: string, env: NodeJS.ProcessEnv): string[] {
  return opencodeConfigDirs(root, env).filter(wouldInstall);
}
