// cli/fast-path.ts: `--version` and `status` start without commander, xstate, zod, execa or the
// viewers, and accept exactly what the commander program accepts for them; `--help` starts without the machines.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { fastPath } from '../../cli/fast-path.js';
import { buildProgram } from '../../cli/program.js';
import { repoRoot, yokeBin } from '../support/yoke-process.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const HEAVY = ['commander', 'xstate', 'zod', 'execa', '@viz-js', '@statelyai', 'yaml', 'ws'];

/** Run the built CLI with a module loader hook that logs every module URL it loads. */
function loadedModules(cwd: string, args: string[]): { urls: string[]; stdout: string; status: number | null } {
  const dir = mkdtempSync(join(tmpdir(), 'yoke-modules-'));
  dirs.push(dir);
  const log = join(dir, 'loaded.txt');
  const hook = join(dir, 'hook.mjs');
  writeFileSync(hook, `import { appendFileSync } from 'node:fs';\nexport async function load(url, context, next) { appendFileSync(${JSON.stringify(log)}, url + '\\n'); return next(url, context); }\n`);
  const register = join(dir, 'register.mjs');
  writeFileSync(register, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hook).href)});\n`);
  const result = spawnSync(process.execPath, ['--import', pathToFileURL(register).href, yokeBin, ...args], { cwd, encoding: 'utf8' });
  return { urls: readFileSync(log, 'utf8').split('\n').filter(Boolean), stdout: result.stdout, status: result.status };
}

/**
 * The sources behind the loaded files: the bundle inlines its dependencies, so each loaded output
 * file is mapped to the inputs esbuild put into it (dist/bundle-meta.json); files loaded from
 * node_modules (not bundled) stand for themselves.
 */
function sourcesOf(urls: string[]): string[] {
  const meta = JSON.parse(readFileSync(join(repoRoot, 'dist', 'bundle-meta.json'), 'utf8')) as { outputs: Record<string, { inputs: Record<string, unknown> }> };
  return urls.flatMap((url) => {
    if (!url.startsWith('file://')) return [];
    const file = relative(repoRoot, new URL(url).pathname);
    const output = meta.outputs[file];
    return output ? Object.keys(output.inputs) : [file];
  });
}

function heavyIn(urls: string[]): string[] {
  return sourcesOf(urls).filter((source) => HEAVY.some((name) => source.includes(`node_modules/${name}/`)));
}

describe('fastPath', () => {
  it('takes --version, -V and status with --json/--watch; leaves everything else to commander', () => {
    for (const args of [['--version'], ['-V'], ['status'], ['status', '--json'], ['status', '--watch', '--json']]) expect(fastPath(args), args.join(' ')).not.toBeNull();
    for (const args of [[], ['--help'], ['status', '--help'], ['status', '--json', '--json'], ['status', '--bogus'], ['status', 'x'], ['run'], ['--version', 'status']]) {
      expect(fastPath(args), args.join(' ')).toBeNull();
    }
  });

  it('status takes exactly the options the commander program defines for it', () => {
    const program = buildProgram(['node', 'yoke'], () => undefined);
    const status = program.commands.find((command) => command.name() === 'status');
    const longs = status?.options.map((option) => option.long).sort();
    expect(longs).toEqual(['--json', '--watch', '--workspace']);
    for (const long of ['--json', '--watch']) expect(fastPath(['status', long])).not.toBeNull();
    // a shared store's workspace (docs/fleet.md) goes through commander, which parses its value
    expect(fastPath(['status', '--workspace', 'alpha'])).toBeNull();
  });
});

describe('start-up cost (the bundled CLI, real processes)', () => {
  it('yoke --help loads no machine: only init and mode, whose help lists the lifecycles, load the registry', () => {
    const repo = mkdtempSync(join(tmpdir(), 'yoke-fast-'));
    dirs.push(repo);
    const help = loadedModules(repo, ['--help']);
    expect(help.status).toBe(0);
    expect(sourcesOf(help.urls).filter((source) => source.includes('node_modules/xstate/') || source.startsWith('machines/'))).toEqual([]);
    const init = loadedModules(repo, ['init', '--help']);
    expect(init.status).toBe(0);
    expect(sourcesOf(init.urls)).toContain('machines/lifecycles/registry.ts');
    expect(init.stdout).toMatch(/^ {2}loop {3,}\S/m);
  });

  it('yoke --version and yoke status load none of commander, xstate, zod, execa, yaml, ws or the viewers', () => {
    const repo = mkdtempSync(join(tmpdir(), 'yoke-fast-'));
    dirs.push(repo);
    execFileSync('git', ['init', '-q'], { cwd: repo });

    const version = loadedModules(repo, ['--version']);
    expect(version.status).toBe(0);
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
    expect(heavyIn(version.urls)).toEqual([]);

    const status = loadedModules(repo, ['status']);
    expect(status.status).toBe(0);
    expect(status.stdout).toContain('No runs yet');
    expect(heavyIn(status.urls)).toEqual([]);

    // anything else goes through commander
    const help = loadedModules(repo, ['status', '--help']);
    expect(help.status).toBe(0);
    expect(heavyIn(help.urls).some((source) => source.includes('/commander/'))).toBe(true);
  });
});
