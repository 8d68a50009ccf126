import { chmod, readFile, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getBlob, putBlob } from '../../../effects/fs/blob-store.js';
import { restoreSpec } from '../../../effects/handlers/spec-restore.js';
import { makeContext } from '../support/effect-context.js';
import { makeProject, type TempProject } from '../support/temp-project.js';

const CANON = join(import.meta.dirname, '..', '..', '..', 'canon');

let p: TempProject;
beforeEach(async () => {
  p = await makeProject({ '.loop/plan.md': 'plan v1\n', '.loop/protocol.md': 'protocol\n' }, { git: false });
});
afterEach(async () => {
  await p.cleanup();
});
const text = (name: string): Promise<string> => readFile(join(p.loopDir, name), 'utf8');

describe('spec.restore', () => {
  it('puts back overwritten, deleted and added spec files, keeping what it displaces', async () => {
    const plan = await putBlob(p.loopDir, Buffer.from('plan v1\n'));
    const protocol = await putBlob(p.loopDir, Buffer.from('protocol\n'));
    const conf = await putBlob(p.loopDir, Buffer.from('mode loop\n'));
    await writeFile(join(p.loopDir, 'plan.md'), 'agent rewrote the plan\n');
    await writeFile(join(p.loopDir, 'judge.md'), 'agent created this\n');
    const { ctx, warnings } = makeContext(p.root, p.loopDir);
    const result = await restoreSpec.execute(
      { specFiles: { 'plan.md': plan, 'protocol.md': protocol, 'yoke.conf': conf, 'judge.md': null } },
      ctx,
    );
    expect(result.restored).toEqual(['judge.md', 'plan.md', 'yoke.conf']);
    expect(Object.keys(result.displaced).sort()).toEqual(['judge.md', 'plan.md']);
    expect((await getBlob(p.loopDir, result.displaced['plan.md'] ?? '')).toString()).toBe('agent rewrote the plan\n');
    expect((await getBlob(p.loopDir, result.displaced['judge.md'] ?? '')).toString()).toBe('agent created this\n');
    expect(await text('plan.md')).toBe('plan v1\n');
    expect(await text('yoke.conf')).toBe('mode loop\n');
    await expect(stat(join(p.loopDir, 'judge.md'))).rejects.toThrow(/ENOENT/);
    // the terminal is told which files were put back, and where what they held is kept
    expect(warnings).toEqual([
      `spec file(s) .loop/judge.md, .loop/plan.md, .loop/yoke.conf changed during the run; put back as the run holds them (an agent's edit never counts; change spec files after the run ends, or start over with \`yoke run --fresh\`); what was there is kept in .loop/.journal/blobs/ (judge.md as blob ${result.displaced['judge.md']?.slice(0, 12) ?? ''}, plan.md as blob ${result.displaced['plan.md']?.slice(0, 12) ?? ''}).`,
    ]);
  });

  it('in a lane, warns about an agent\'s edit but not about a version yoke already keeps (the run\'s own spec before another story landed)', async () => {
    const before = await putBlob(p.loopDir, Buffer.from('plan v1\n'));
    const landed = await putBlob(p.loopDir, Buffer.from('plan v2: S2 passed\n'));
    const { ctx, warnings } = makeContext(p.root, p.loopDir);
    // the lane's worktree still holds the run's earlier version: brought up to date in silence
    const quiet = await restoreSpec.execute({ lane: 'S1', specFiles: { 'plan.md': landed } }, ctx);
    expect(quiet.restored).toEqual(['plan.md']);
    expect(quiet.displaced['plan.md']).toBe(before);
    expect(await text('plan.md')).toBe('plan v2: S2 passed\n');
    expect(warnings).toEqual([]);
    // an agent's edit in the lane is still told
    await writeFile(join(p.loopDir, 'plan.md'), 'the lane agent rewrote the plan\n');
    await restoreSpec.execute({ lane: 'S1', specFiles: { 'plan.md': landed } }, ctx);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^spec file\(s\) \.loop\/plan\.md in story S1's worktree changed during the run/);
  });

  it('puts back the version the run holds when it runs (an edit journaled after the restore was decided), named in `held`, without calling it a change during the run', async () => {
    const decided = await putBlob(p.loopDir, Buffer.from('plan v1\n'));
    const protocol = await putBlob(p.loopDir, Buffer.from('protocol\n'));
    const edited = await putBlob(p.loopDir, Buffer.from('plan v1, as the user fixed it\n'));
    await writeFile(join(p.loopDir, 'plan.md'), 'plan v1, as the user fixed it\n');
    const { ctx, warnings } = makeContext(p.root, p.loopDir, { heldSpecFiles: { 'plan.md': edited, 'protocol.md': protocol, 'other.md': null } });
    const result = await restoreSpec.execute({ specFiles: { 'plan.md': decided, 'protocol.md': protocol } }, ctx);
    expect(result).toEqual({ restored: [], displaced: {}, held: { 'plan.md': edited } });
    expect(await text('plan.md')).toBe('plan v1, as the user fixed it\n');
    expect(warnings).toEqual([]);
  });

  it('changes nothing when the files already match (idempotent retry)', async () => {
    const plan = await putBlob(p.loopDir, Buffer.from('plan v1\n'));
    await unlink(join(p.loopDir, 'protocol.md'));
    const { ctx, warnings } = makeContext(p.root, p.loopDir);
    const before = await stat(join(p.loopDir, 'plan.md'));
    const result = await restoreSpec.execute({ specFiles: { 'plan.md': plan, 'protocol.md': null } }, ctx);
    expect(result).toEqual({ restored: [], displaced: {} });
    expect(warnings).toEqual([]);
    expect((await stat(join(p.loopDir, 'plan.md'))).ino).toBe(before.ino);
    expect(restoreSpec.policy).toBe('retry');
  });

  it('keeps the permission bits of a file it rewrites', async () => {
    const plan = await putBlob(p.loopDir, Buffer.from('plan v1\n'));
    await writeFile(join(p.loopDir, 'plan.md'), 'changed');
    await chmod(join(p.loopDir, 'plan.md'), 0o600);
    await restoreSpec.execute({ specFiles: { 'plan.md': plan } }, makeContext(p.root, p.loopDir).ctx);
    expect((await stat(join(p.loopDir, 'plan.md'))).mode & 0o777).toBe(0o600);
  });

  it('fails loudly when a backup blob is missing', async () => {
    const { ctx } = makeContext(p.root, p.loopDir);
    await expect(restoreSpec.execute({ specFiles: { 'plan.md': 'f'.repeat(64) } }, ctx)).rejects.toThrow(/missing/);
    expect(await text('plan.md')).toBe('plan v1\n');
  });

  it('a removed .loop/.gitignore stayed gone (the next commit recorded its deletion): it is written back as `yoke init` writes it, and listed', async () => {
    const plan = await putBlob(p.loopDir, Buffer.from('plan v1\n'));
    await unlink(join(p.loopDir, '.gitignore'));
    const result = await restoreSpec.execute({ specFiles: { 'plan.md': plan } }, makeContext(p.root, p.loopDir).ctx);
    expect(result).toEqual({ restored: ['.gitignore'], displaced: {} });
    expect(await text('.gitignore')).toBe(await readFile(join(CANON, 'init', 'loop', 'gitignore'), 'utf8'));
    // one the user changed is theirs
    await writeFile(join(p.loopDir, '.gitignore'), '.journal/\n.stash/\nscratch/\n');
    expect(await restoreSpec.execute({ specFiles: { 'plan.md': plan } }, makeContext(p.root, p.loopDir).ctx)).toEqual({ restored: [], displaced: {} });
  });

  it('leaves a parallel lane’s .loop/ without a .gitignore as it is (its commits integrate)', async () => {
    const plan = await putBlob(p.loopDir, Buffer.from('plan v1\n'));
    await unlink(join(p.loopDir, '.gitignore'));
    const { ctx } = makeContext(p.root, p.loopDir, { projectRoot: '/elsewhere', projectLoopDir: '/elsewhere/.loop' });
    expect(await restoreSpec.execute({ specFiles: { 'plan.md': plan } }, ctx)).toEqual({ restored: [], displaced: {} });
    await expect(stat(join(p.loopDir, '.gitignore'))).rejects.toThrow(/ENOENT/);
  });
});
