// The npm package (issue 15: "`npm pack` ships the bundle"): what `npm pack` puts in the tarball is
// the bundled CLI (its entry, every chunk it loads, their source maps) and canon/, and the CLI runs
// from the unpacked tarball alone, without the repository's node_modules or sources.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../support/yoke-process.js';

const TIMEOUT = 120_000;
const scratch = mkdtempSync(join(tmpdir(), 'yoke-pack-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Every file under `dir` (relative to the repository root, `/`-separated). */
function filesUnder(dir: string): string[] {
  const found: string[] = [];
  const walk = (path: string): void => {
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      const full = join(path, entry.name);
      if (entry.isDirectory()) walk(full);
      else found.push(relative(repoRoot, full).split('\\').join('/'));
    }
  };
  walk(join(repoRoot, dir));
  return found.sort();
}

describe('npm pack', () => {
  it('a package missing a chunk, a source map or canon/ would break at run time: the tarball ships all of them, and runs unpacked', () => {
    const packed = execFileSync('npm', ['pack', '--json', '--pack-destination', scratch], { cwd: repoRoot, encoding: 'utf8', env: { ...process.env, npm_config_loglevel: 'error' } });
    const [manifest] = JSON.parse(packed) as Array<{ filename: string; files: Array<{ path: string }> }>;
    if (!manifest) throw new Error('npm pack printed no manifest');
    const shipped = manifest.files.map((file) => file.path).sort();

    // the whole bundle and nothing else from dist/: the entry, every chunk, every source map
    const bundle = filesUnder('dist/bundle');
    expect(bundle).toContain('dist/bundle/yoke.js');
    expect(bundle.some((path) => path.startsWith('dist/bundle/chunks/'))).toBe(true);
    expect(shipped.filter((path) => path.startsWith('dist/'))).toEqual(bundle);
    for (const script of bundle.filter((path) => path.endsWith('.js'))) expect(shipped, `${script}'s source map`).toContain(`${script}.map`);
    // the bin users get is in it
    const bin = (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { bin: { yoke: string } }).bin.yoke;
    expect(shipped).toContain(bin);
    // canon/ whole: prompts, templates, skills, the manifest
    const canon = filesUnder('canon');
    expect(canon).toContain('canon/manifest.yaml');
    expect(shipped.filter((path) => path.startsWith('canon/'))).toEqual(canon);
    // no sources, tests or build scripts
    expect(shipped.filter((path) => /^(cli|store|machines|effects|tests|scripts|bench)\//.test(path))).toEqual([]);

    // unpacked away from the repository, the CLI starts, loads its chunks and finds canon/
    const unpacked = join(scratch, 'unpacked');
    execFileSync('mkdir', ['-p', unpacked]);
    execFileSync('tar', ['-xzf', join(scratch, manifest.filename), '-C', unpacked]);
    const entry = join(unpacked, 'package', bin);
    expect(statSync(entry).isFile()).toBe(true);
    const project = join(scratch, 'project');
    execFileSync('git', ['init', '-q', project]);
    const run = (args: string[]) => spawnSync(process.execPath, [entry, ...args], { cwd: project, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
    const version = run(['--version']);
    expect(version.status, version.stderr).toBe(0);
    const init = run(['init', 'loop']); // canon/init/loop, read next to the bundle
    expect(init.status, init.stderr).toBe(0);
    expect(readFileSync(join(project, '.loop', 'protocol.md'), 'utf8')).toBe(readFileSync(join(repoRoot, 'canon', 'init', 'loop', 'protocol.md'), 'utf8'));
    // the config readers and zod, then the machines and xstate: chunks of their own
    const check = run(['config', 'check', '--json']);
    expect((JSON.parse(check.stdout) as { valid: boolean }).valid, check.stderr).toBe(true);
    const inspect = run(['inspect', 'loop', '--json']);
    expect(inspect.status, inspect.stderr).toBe(0);
    expect((JSON.parse(inspect.stdout) as { name: string }).name).toBe('loop');
  }, TIMEOUT);
});
