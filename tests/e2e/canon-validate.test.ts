// `yoke canon validate [dir]` through the shipped CLI: the canon yoke ships is valid (CI runs this),
// and a broken canon is named file:line with exit 1.
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, runYoke } from '../support/yoke-process.js';

describe('yoke canon validate', () => {
  it('passes the shipped canon/ (by path and by default)', async () => {
    for (const args of [['canon', 'validate', 'canon'], ['canon', 'validate']]) {
      const result = await runYoke({ path: repoRoot }, args);
      expect(result.exitCode, result.stderr).toBe(0);
      expect(result.stdout).toMatch(/valid canon v1: 7 skills/);
    }
  });

  it('names every problem of a broken canon with file:line and exits 1; a missing folder is exit 2', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'yoke-canon-'));
    try {
      await cp(join(repoRoot, 'canon'), join(dir, 'canon'), { recursive: true });
      await writeFile(join(dir, 'canon', 'skills', 'review', 'SKILL.md'), '---\nname: code-review\ndescription: reviews\n---\n\nbody\n');
      await cp(join(dir, 'canon', 'skills', 'investigate'), join(dir, 'canon', 'skills', 'debug'), { recursive: true });
      const result = await runYoke({ path: dir }, ['canon', 'validate', 'canon']);
      expect(result.exitCode).toBe(1);
      expect(result.stderr).toContain('canon/skills/review/SKILL.md:2: name `code-review` must equal its folder name `review`');
      expect(result.stderr).toContain('canon/skills/debug:1: is not listed under `skills:` in manifest.yaml');
      const json = await runYoke({ path: dir }, ['canon', 'validate', 'canon', '--json']);
      expect(JSON.parse(json.stdout)).toMatchObject({ valid: false });
      expect((await runYoke({ path: dir }, ['canon', 'validate', 'nowhere'])).exitCode).toBe(2);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
