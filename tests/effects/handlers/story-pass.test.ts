// story.pass (DESIGN §8, §9): passes: true, the DECISIONS.md entry and the work land in one commit;
// the flag goes onto prd.yaml as the run holds it, never onto what the agent left; a failed commit
// leaves neither the flag nor the entry behind, and a retry after a crash commits them once.
import { existsSync, readFileSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { appendPendingDecision } from '../../../effects/context/decision-ledger.js';
import { getBlob, putBlob } from '../../../effects/fs/blob-store.js';
import { passStory } from '../../../effects/handlers/story-pass.js';
import type { EffectParams } from '../../../machines/effects.js';
import { makeContext } from '../support/effect-context.js';
import { makeProject, type TempProject } from '../support/temp-project.js';

let p: TempProject;
afterEach(async () => {
  await p.cleanup();
});

const PRD = 'stories:\n  - id: S1\n    title: First\n    acceptance: [one]\n    passes: false\n  - id: S2\n    title: Second\n    acceptance: [two]\n    passes: false\n';
const ENTRY = '## 2026-12-01 — S1: First\nwrote it\n';
const read = (rel: string): string | null => (existsSync(join(p.root, rel)) ? readFileSync(join(p.root, rel), 'utf8') : null);
const backups = async (): Promise<string[]> => readdir(join(p.loopDir, '.journal', 'decisions')).catch(() => []);

/** A stories project with prd.yaml committed, its backup blob, and the agent's work on disk. */
async function project(files: Record<string, string> = {}): Promise<{ spec: string; params: EffectParams<'story.pass'> }> {
  p = await makeProject({ '.loop/prd.yaml': PRD, '.yoke/context/DECISIONS.md': '# Decisions\n', ...files }, { commit: true });
  const spec = await putBlob(p.loopDir, Buffer.from(PRD));
  await p.write('work.txt', 'the work\n');
  return { spec, params: { story: 'S1', message: 'feat(S1): First', iteration: 1, decision: ENTRY, commit: true, spec } };
}

describe('story.pass', () => {
  it('commits the work, the flag on the backed-up prd.yaml and the entry in one commit; an agent\'s flag on another story is not in it', async () => {
    const { params } = await project();
    await p.write('.loop/prd.yaml', PRD.replaceAll('passes: false', 'passes: true'));
    const { ctx } = makeContext(p.root, p.loopDir);
    const result = await passStory.execute(params, ctx);
    expect(result.sha).toMatch(/^[0-9a-f]{40}$/);
    const flagged = PRD.replace('passes: false', 'passes: true');
    expect(await p.git('show', 'HEAD:.loop/prd.yaml')).toBe(flagged.trimEnd());
    expect(read('.loop/prd.yaml')).toBe(flagged);
    expect((await getBlob(p.loopDir, result.prdBlob)).toString()).toBe(flagged);
    expect(await p.git('show', '--name-only', '--format=', 'HEAD')).toBe('.loop/prd.yaml\n.yoke/context/DECISIONS.md\nwork.txt');
    expect(await p.git('log', '-1', '--format=%B')).toMatch(/^feat\(S1\): First\n\nYoke-Story: S1\nYoke-Run: /);
    expect(read('.yoke/context/DECISIONS.md')).toBe(`# Decisions\n\n${ENTRY}`);
    expect(await backups()).toEqual([]);
  });

  it('puts back a prd.yaml the agent deleted, with the flag set', async () => {
    const { params } = await project();
    await rm(join(p.loopDir, 'prd.yaml'));
    const { ctx } = makeContext(p.root, p.loopDir);
    await passStory.execute(params, ctx);
    expect(await p.git('show', 'HEAD:.loop/prd.yaml')).toBe(PRD.replace('passes: false', 'passes: true').trimEnd());
  });

  it('a failed commit leaves neither the flag nor the entry behind, and the retry commits both once', async () => {
    const { params } = await project();
    const branch = await p.git('symbolic-ref', '--short', 'HEAD');
    const base = await p.git('rev-parse', 'HEAD');
    await p.git('checkout', '-q', '-b', 'other');
    const { ctx } = makeContext(p.root, p.loopDir);
    const pinned = { ...params, head: { branch, sha: base } };
    await expect(passStory.execute(pinned, ctx)).rejects.toThrow(/HEAD is on branch `other`/);
    expect(read('.loop/prd.yaml')).toBe(PRD);
    expect(read('.yoke/context/DECISIONS.md')).toBe('# Decisions\n');
    expect(await backups()).toEqual([]);
    await p.git('checkout', '-q', branch);
    const result = await passStory.execute(pinned, ctx);
    expect(result.sha).toMatch(/^[0-9a-f]{40}$/);
    expect(await p.git('show', 'HEAD:.yoke/context/DECISIONS.md')).toBe(`# Decisions\n\n${ENTRY}`.trimEnd());
  });

  it('re-executed after a crash between the DECISIONS.md append and the commit, it appends the entry once and makes one commit', async () => {
    const { params } = await project();
    const { ctx } = makeContext(p.root, p.loopDir);
    // the first execution got as far as the append (its backup is on disk), then the process died
    await appendPendingDecision(p.root, p.loopDir, ctx.key, ENTRY);
    expect(await passStory.reconcile?.(params, ctx)).toBeNull();
    await passStory.execute(params, ctx);
    expect(read('.yoke/context/DECISIONS.md')).toBe(`# Decisions\n\n${ENTRY}`);
    expect(await p.git('show', 'HEAD:.yoke/context/DECISIONS.md')).toBe(`# Decisions\n\n${ENTRY}`.trimEnd());
    expect(await p.git('rev-list', '--count', 'HEAD')).toBe('2');
    expect(await backups()).toEqual([]);
  });

  it('re-executed after such a crash, a commit that fails again still takes the entry out (no orphan)', async () => {
    const { params } = await project();
    const branch = await p.git('symbolic-ref', '--short', 'HEAD');
    const pinned = { ...params, head: { branch, sha: await p.git('rev-parse', 'HEAD') } };
    const { ctx } = makeContext(p.root, p.loopDir);
    await appendPendingDecision(p.root, p.loopDir, ctx.key, ENTRY);
    await p.git('checkout', '-q', '-b', 'other');
    await expect(passStory.execute(pinned, ctx)).rejects.toThrow(/HEAD is on branch `other`/);
    expect(read('.yoke/context/DECISIONS.md')).toBe('# Decisions\n');
    expect(read('.loop/prd.yaml')).toBe(PRD);
  });

  it('after a crash between the commit and its journal record, reconcile finds the commit instead of committing twice', async () => {
    const { params } = await project();
    const { ctx } = makeContext(p.root, p.loopDir);
    const first = await passStory.execute(params, ctx);
    const found = await passStory.reconcile?.(params, ctx);
    expect(found).toEqual({ sha: first.sha, prdBlob: first.prdBlob });
    expect(await p.git('rev-list', '--count', 'HEAD')).toBe('2');
  });

  it('sets the flag on the prd.yaml the run holds when it runs: an edit journaled after the pass was decided is kept (its blob named as `base`), in the commit or, after one made before the edit, in the file', async () => {
    const { params } = await project();
    const edited = PRD.replace('title: Second', 'title: Second, fixed');
    const held = await putBlob(p.loopDir, Buffer.from(edited));
    await p.write('.loop/prd.yaml', edited);
    const flagged = edited.replace('passes: false', 'passes: true');
    const { ctx } = makeContext(p.root, p.loopDir, { heldSpecFiles: { 'prd.yaml': held } });
    const result = await passStory.execute(params, ctx);
    expect(result.base).toBe(held);
    expect((await getBlob(p.loopDir, result.prdBlob)).toString()).toBe(flagged);
    expect(await p.git('show', 'HEAD:.loop/prd.yaml')).toBe(flagged.trimEnd());
    // the commit was made before the next edit (a kill before its record): found, and the file keeps the edit on top
    const later = `${edited}  - id: S3\n    title: Third\n    acceptance: [three]\n`;
    await p.write('.loop/prd.yaml', later);
    const newer = await putBlob(p.loopDir, Buffer.from(later));
    const found = await passStory.reconcile?.(params, { ...ctx, heldSpecFiles: { 'prd.yaml': newer } });
    const laterFlagged = later.replace('passes: false', 'passes: true');
    expect(found).toEqual({ sha: result.sha, prdBlob: await putBlob(p.loopDir, Buffer.from(laterFlagged)), base: newer });
    expect(read('.loop/prd.yaml')).toBe(laterFlagged);
    expect(await p.git('rev-list', '--count', 'HEAD')).toBe('2');
    // held as decided: no `base`
    expect(await passStory.reconcile?.(params, { ...ctx, heldSpecFiles: { 'prd.yaml': params.spec ?? '' } })).not.toHaveProperty('base');
  });

  it('with `commit off`, writes the flag and the entry and commits nothing', async () => {
    const { params } = await project();
    const { ctx } = makeContext(p.root, p.loopDir);
    expect(await passStory.execute({ ...params, commit: false }, ctx)).toMatchObject({ sha: null });
    expect(read('.loop/prd.yaml')).toBe(PRD.replace('passes: false', 'passes: true'));
    expect(read('.yoke/context/DECISIONS.md')).toBe(`# Decisions\n\n${ENTRY}`);
    expect(await p.git('rev-list', '--count', 'HEAD')).toBe('1');
    expect(await backups()).toEqual([]);
  });
});
