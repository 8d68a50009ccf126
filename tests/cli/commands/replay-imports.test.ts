// `yoke replay` cannot run an effect by construction: no module it can load (statically or by a
// lazy `import()`) reaches an effect executor, the runner, or the journal writer. `yoke inspect`
// neither. Checked by following the import graph of the source files.
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../support/yoke-process.js';

const SPECIFIER = /(?:import|export)\s[^'";]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|import\s+['"]([^'"]+)['"]/g;

/** Every source file (repo-relative) and package reachable from `entry`. */
function reachable(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string): void => {
    const rel = relative(repoRoot, file);
    if (files.has(rel)) return;
    files.add(rel);
    const source = readFileSync(file, 'utf8');
    for (const match of source.matchAll(SPECIFIER)) {
      const specifier = match[1] ?? match[2] ?? match[3] ?? '';
      if (specifier.startsWith('.')) visit(resolve(dirname(file), specifier.replace(/\.js$/, '.ts')));
      else packages.add(specifier);
    }
  };
  visit(join(repoRoot, entry));
  return { files, packages };
}

const FORBIDDEN = [
  /^effects\//,
  /^store\/fold\/runner\.ts$/,
  /^store\/journal\/journal-writer\.ts$/,
  /^store\/journal\/file\/file-journal-store\.ts$/,
  /^store\/journal\/file\/workspace-lock\.ts$/,
  /^store\/journal\/postgres\/postgres-journal-store\.ts$/,
  /^store\/journal\/postgres\/postgres-lease\.ts$/,
  /^store\/session\/open-workspace\.ts$/,
];

describe('replay and inspect reach no executor', () => {
  for (const entry of ['cli/commands/replay.ts', 'cli/commands/inspect.ts']) {
    it(`${entry} imports nothing from effects/, the runner or the journal writer`, () => {
      const { files, packages } = reachable(entry);
      expect(files.size).toBeGreaterThan(5);
      expect([...files].filter((file) => FORBIDDEN.some((pattern) => pattern.test(file)))).toEqual([]);
      expect([...packages].filter((name) => name === 'execa')).toEqual([]);
    });
  }

  it('the scan follows lazy imports (it finds the --verify and --html modules)', () => {
    const { files } = reachable('cli/commands/replay.ts');
    expect(files).toContain('cli/commands/replay-verify.ts');
    expect(files).toContain('store/projections/verify-run.ts');
    expect(files).toContain('store/projections/replay-steps.ts');
  });

  it('the scan would notice an executor or a writer: the run command does reach them', () => {
    const { files } = reachable('cli/commands/run.ts');
    expect([...files].some((file) => file.startsWith('effects/'))).toBe(true);
    expect([...files].filter((file) => FORBIDDEN.slice(1).some((pattern) => pattern.test(file)))).toHaveLength(FORBIDDEN.length - 1);
  });
});
