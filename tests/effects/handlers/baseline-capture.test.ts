import { afterEach, describe, expect, it } from 'vitest';
import { getBlob } from '../../../effects/fs/blob-store.js';
import { captureBaseline } from '../../../effects/handlers/baseline-capture.js';
import { captureWorkTree } from '../../../effects/git/git-tree.js';
import { makeContext } from '../support/effect-context.js';
import { makeProject, type TempProject } from '../support/temp-project.js';

let p: TempProject;
afterEach(async () => {
  await p.cleanup();
});

describe('baseline.capture', () => {
  it('backs up present spec files as blobs, absent ones as null, and captures the tree', async () => {
    p = await makeProject({ 'src/a.ts': 'a', '.loop/plan.md': 'the plan\n', '.loop/yoke.conf': 'mode loop\n' });
    const { ctx } = makeContext(p.root, p.loopDir);
    const result = await captureBaseline.execute({ specFiles: ['plan.md', 'yoke.conf', 'protocol.md'] }, ctx);
    expect(Object.keys(result.specFiles)).toEqual(['plan.md', 'yoke.conf', 'protocol.md']);
    expect(result.specFiles['protocol.md']).toBeNull();
    expect((await getBlob(p.loopDir, result.specFiles['plan.md'] ?? '')).toString()).toBe('the plan\n');
    expect((await getBlob(p.loopDir, result.specFiles['yoke.conf'] ?? '')).toString()).toBe('mode loop\n');
    expect(result.tree).toBe(await captureWorkTree(p.root));
    expect(captureBaseline.policy).toBe('retry');
  });

  it('gives the same result when retried', async () => {
    p = await makeProject({ '.loop/plan.md': 'x' });
    const { ctx } = makeContext(p.root, p.loopDir);
    const first = await captureBaseline.execute({ specFiles: ['plan.md'] }, ctx);
    expect(await captureBaseline.execute({ specFiles: ['plan.md'] }, ctx)).toEqual(first);
  });

  it('refuses a spec file name that escapes .loop/', async () => {
    p = await makeProject();
    const { ctx } = makeContext(p.root, p.loopDir);
    await expect(captureBaseline.execute({ specFiles: ['../secret'] }, ctx)).rejects.toThrow(/not a file name inside \.loop/);
  });
});
