// effects/acceptance/proof-folder.ts: new evidence replaces a label's folder only when committed.
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createProofFolder, proofRoot } from '../../../effects/acceptance/proof-folder.js';
import { makeProject, type TempProject } from '../support/temp-project.js';

let p: TempProject;
beforeEach(async () => {
  p = await makeProject({ '.loop/proof/latest/report.json': 'old\n', '.loop/proof/latest/old.png': 'png' }, { git: false });
});
afterEach(() => p.cleanup());

const entries = async (): Promise<string[]> => (await readdir(proofRoot(p.loopDir))).sort();

describe('createProofFolder', () => {
  it('writes into a hidden scratch folder; commit replaces the label folder whole', async () => {
    const proof = await createProofFolder(p.loopDir, 'latest');
    expect(proof.relative).toBe('proof/latest');
    await writeFile(join(proof.dir, 'report.json'), 'new\n');
    expect(await readFile(join(p.loopDir, 'proof/latest/report.json'), 'utf8')).toBe('old\n');
    await proof.commit();
    expect(await readdir(join(p.loopDir, 'proof/latest'))).toEqual(['report.json']);
    expect(await readFile(join(p.loopDir, 'proof/latest/report.json'), 'utf8')).toBe('new\n');
    expect(await entries()).toEqual(['latest']);
  });

  it('discard leaves the earlier evidence exactly as it was', async () => {
    const proof = await createProofFolder(p.loopDir, 'latest');
    await writeFile(join(proof.dir, 'report.json'), 'new\n');
    await proof.discard();
    expect(await readFile(join(p.loopDir, 'proof/latest/report.json'), 'utf8')).toBe('old\n');
    expect(await entries()).toEqual(['latest']);
  });

  it('a first check creates .loop/proof/<label>/; other labels are left alone', async () => {
    const proof = await createProofFolder(p.loopDir, 'release-1.2');
    await proof.commit();
    expect(await entries()).toEqual(['latest', 'release-1.2']);
  });

  it('clears scratch folders of checks that died, and puts back a label folder moved aside by one', async () => {
    const dead = (await execa('sh', ['-c', 'echo $$'])).stdout.trim();
    await mkdir(join(proofRoot(p.loopDir), `.tmp-latest-${dead}-0123abcd`));
    await mkdir(join(proofRoot(p.loopDir), `.old-gone-${dead}-0123abcd`));
    await writeFile(join(proofRoot(p.loopDir), `.old-gone-${dead}-0123abcd`, 'report.json'), 'gone\n');
    await mkdir(join(proofRoot(p.loopDir), `.tmp-live-${process.ppid}-0123abcd`));
    const proof = await createProofFolder(p.loopDir, 'latest');
    await proof.discard();
    expect(await entries()).toEqual([`.tmp-live-${process.ppid}-0123abcd`, 'gone', 'latest']);
    expect(await readFile(join(p.loopDir, 'proof/gone/report.json'), 'utf8')).toBe('gone\n');
  });
});
