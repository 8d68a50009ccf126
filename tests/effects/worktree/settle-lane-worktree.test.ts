// effects/worktree/settle-lane-worktree.ts (DESIGN §10): on resume a lane's worktree is reused when it
// holds what the journal records, else made again from the journal, its own commits kept under a ref.
import { lstat, readlink, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { laneWorktreePath } from '../../../effects/worktree/locate-lane-worktree.js';
import { settleLaneWorktree, settlementWarning } from '../../../effects/worktree/settle-lane-worktree.js';
import type { LaneExpectation } from '../../../machines/parallel/lane-expectation.js';
import { makeProject, type TempProject } from '../support/temp-project.js';

let p: TempProject;
afterEach(async () => {
  await p.cleanup();
});

const BRANCH = 'yoke/RUN1/S1';

/** A project on `main` and S1's lane worktree on its branch at `base`. */
async function laneProject(): Promise<{ base: string; lane: string; expected: LaneExpectation }> {
  p = await makeProject({ 'a.txt': 'a\n' }, { commit: true });
  const base = await p.git('rev-parse', 'HEAD');
  const lane = await laneWorktreePath(p.root, 'S1');
  await p.git('worktree', 'add', '-q', '-b', BRANCH, lane, base);
  return { base, lane, expected: { story: 'S1', branch: BRANCH, commit: base, phase: 'turn', compareHead: true, attempt: 1 } };
}

const main = () => ({ root: p.root, loopDir: p.loopDir });
/** These projects have no dependency folders to link: any warning is a failure. */
const warn = (message: string): never => {
  throw new Error(`unexpected warning: ${message}`);
};

describe('settleLaneWorktree', () => {
  it('reuses a worktree that is on the lane\'s branch at the recorded commit, its uncommitted work untouched', async () => {
    const { lane, expected } = await laneProject();
    await writeFile(join(lane, 'work.txt'), 'half done\n');
    expect(await settleLaneWorktree(main(), 'RUN1', expected, warn)).toEqual({ kind: 'reused' });
    expect(await p.git('-C', lane, 'status', '--porcelain', '--', '.', ':!.loop')).toBe('?? work.txt');
  });

  it('makes a worktree deleted by hand again from the journal: on its branch, at the recorded commit, its .loop/.journal linked to the main one', async () => {
    const { base, lane, expected } = await laneProject();
    await rm(lane, { recursive: true, force: true });
    const settled = await settleLaneWorktree(main(), 'RUN1', expected, warn);
    expect(settled).toEqual({ kind: 'remade', why: 'missing', path: lane });
    expect(await p.git('-C', lane, 'rev-parse', 'HEAD')).toBe(base);
    expect(await p.git('-C', lane, 'symbolic-ref', 'HEAD')).toBe(`refs/heads/${BRANCH}`);
    expect((await lstat(join(lane, '.loop', '.journal'))).isSymbolicLink()).toBe(true);
    expect(await readlink(join(lane, '.loop', '.journal'))).toBe(join(p.loopDir, '.journal'));
    expect(settlementWarning(expected, settled as Extract<typeof settled, { kind: 'remade' }>, true))
      .toBe(`story S1's worktree (${lane}) was gone: made it again from the journal, on ${BRANCH} at ${base.slice(0, 12)}; its turn starts over from the restore step`);
  });

  it('reuses a mid-turn worktree whose worker committed on the lane\'s branch on top of the recorded base: the commits are not thrown away', async () => {
    const { base, lane, expected } = await laneProject();
    await writeFile(join(lane, 'work.txt'), 'committed by the worker\n');
    await p.git('-C', lane, 'add', 'work.txt');
    await p.git('-C', lane, 'commit', '-q', '-m', 'worker commit');
    const head = await p.git('-C', lane, 'rev-parse', 'HEAD');
    expect(head).not.toBe(base);
    expect(await settleLaneWorktree(main(), 'RUN1', expected, warn)).toEqual({ kind: 'reused' });
    expect(await p.git('-C', lane, 'rev-parse', 'HEAD')).toBe(head);
    expect(await p.git('for-each-ref', 'refs/yoke/')).toBe('');
  });

  it('keeps the commits of a worktree whose HEAD moved under refs/yoke/<run>/resumed/<story>/<attempt> (-2, -3 … when taken), and checks the recorded commit out again', async () => {
    const { base, lane, expected: turn } = await laneProject();
    // a candidate waiting for integration must be exactly the recorded commit
    const expected: LaneExpectation = { ...turn, phase: 'integration' };
    const commit = async (text: string): Promise<string> => {
      await writeFile(join(lane, 'stray.txt'), text);
      await p.git('-C', lane, 'add', 'stray.txt');
      await p.git('-C', lane, 'commit', '-q', '-m', text);
      return p.git('-C', lane, 'rev-parse', 'HEAD');
    };
    const first = await commit('first');
    const settled = await settleLaneWorktree(main(), 'RUN1', expected, warn);
    expect(settled).toEqual({ kind: 'remade', why: 'moved', was: first, branch: BRANCH, kept: 'refs/yoke/RUN1/resumed/S1/1' });
    expect(await p.git('rev-parse', 'refs/yoke/RUN1/resumed/S1/1')).toBe(first);
    expect(await p.git('-C', lane, 'rev-parse', 'HEAD')).toBe(base);
    expect(await p.git('-C', lane, 'status', '--porcelain', '--', '.', ':!.loop')).toBe('');
    expect(settlementWarning(expected, settled as Extract<typeof settled, { kind: 'remade' }>, false))
      .toBe(`story S1's worktree was at ${first.slice(0, 12)} on ${BRANCH}, not on ${BRANCH} at ${base.slice(0, 12)} as the journal records it: kept ${first.slice(0, 12)} as refs/yoke/RUN1/resumed/S1/1 and made it again there`);
    const second = await commit('second');
    expect(await settleLaneWorktree(main(), 'RUN1', expected, warn)).toMatchObject({ kept: 'refs/yoke/RUN1/resumed/S1/1-2' });
    expect(await p.git('rev-parse', 'refs/yoke/RUN1/resumed/S1/1-2')).toBe(second);
  });

  it('makes a worktree checked out on another branch again, keeping nothing when the recorded commit already holds its HEAD', async () => {
    const { base, lane, expected } = await laneProject();
    await p.git('-C', lane, 'checkout', '-q', '-b', 'elsewhere');
    expect(await settleLaneWorktree(main(), 'RUN1', expected, warn)).toEqual({ kind: 'remade', why: 'moved', was: base, branch: 'elsewhere', kept: null });
    expect(await p.git('-C', lane, 'symbolic-ref', 'HEAD')).toBe(`refs/heads/${BRANCH}`);
    expect(await p.git('for-each-ref', 'refs/yoke/')).toBe('');
  });

  it('leaves HEAD alone while an effect that moves it was cut short (it recovers on its own), and still makes a missing worktree again', async () => {
    const { lane, expected } = await laneProject();
    await writeFile(join(lane, 'stray.txt'), 'x\n');
    await p.git('-C', lane, 'add', '-A');
    await p.git('-C', lane, 'commit', '-q', '-m', 'a candidate half made');
    const head = await p.git('-C', lane, 'rev-parse', 'HEAD');
    expect(await settleLaneWorktree(main(), 'RUN1', { ...expected, compareHead: false }, warn)).toEqual({ kind: 'reused' });
    expect(await p.git('-C', lane, 'rev-parse', 'HEAD')).toBe(head);
    await rm(lane, { recursive: true, force: true });
    expect(await settleLaneWorktree(main(), 'RUN1', { ...expected, compareHead: false }, warn)).toEqual({ kind: 'remade', why: 'missing', path: lane });
  });
});
