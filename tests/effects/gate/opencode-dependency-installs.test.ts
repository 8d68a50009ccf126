// OpenCode's config folders (where it installs @opencode-ai/plugin at every start), as OpenCode 1.18.33
// finds them: the XDG one, each existing .opencode/ from the project up to its git root, ~/.opencode/,
// $OPENCODE_CONFIG_DIR; and which it would install into (a read-only one it skips).
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { opencodeConfigDirs, wouldInstall } from '../../../effects/gate/opencode-dependency-installs.js';

const dirs: string[] = [];
afterAll(async () => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

describe('OpenCode\'s config folders', () => {
  it('the XDG folder, .opencode/ up to the git root (not above it), ~/.opencode/, and OPENCODE_CONFIG_DIR', () => {
    const top = mkdtempSync(join(tmpdir(), 'yoke-opencode-dirs-'));
    dirs.push(top);
    const repo = join(top, 'repo');
    const project = join(repo, 'sub');
    for (const dir of [join(top, '.opencode'), join(repo, '.git'), join(repo, '.opencode'), join(project, '.opencode'), join(top, 'home', '.opencode')]) mkdirSync(dir, { recursive: true });
    expect(opencodeConfigDirs(project, { HOME: join(top, 'home'), OPENCODE_CONFIG_DIR: '/cfg' })).toEqual([
      join(top, 'home', '.config', 'opencode'), join(project, '.opencode'), join(repo, '.opencode'), join(top, 'home', '.opencode'), '/cfg',
    ]);
  });

  it.skipIf(process.getuid?.() === 0)('a folder OpenCode cannot write is skipped', () => {
    const dir = mkdtempSync(join(tmpdir(), 'yoke-opencode-ro-'));
    dirs.push(dir);
    writeFileSync(join(dir, 'package.json'), '{}');
    chmodSync(dir, 0o500);
    expect(wouldInstall(dir)).toBe(false);
    chmodSync(dir, 0o700);
    expect(wouldInstall(dir)).toBe(true);
  });
});
