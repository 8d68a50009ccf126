// commit.create with a decision entry (DESIGN §9): the entry lands in DECISIONS.md in the same commit
// as the work, only when `.yoke/context/` exists, and is taken out again when the commit fails.
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCommit } from '../../../effects/handlers/commit-create.js';
import { appendPendingDecision } from '../../../effects/context/decision-ledger.js';
import { makeContext } from '../support/effect-context.js';
import { makeProject, type TempProject } from '../support/temp-project.js';

let p: TempProject;
afterEach(async () => {
  await p.cleanup();
});

const ENTRY = '## 2026-12-01 — chunk-2: The parser\nA hand-written parser\n';
const ledger = (): string | null => (existsSync(join(p.root, '.yoke/context/DECISIONS.md')) ? readFileSync(join(p.root, '.yoke/context/DECISIONS.md'), 'utf8') : null);
const backups = async (): Promise<string[]> => readdir(join(p.loopDir, '.journal', 'decisions')).catch(() => []);

describe('commit.create with a decision entry', () => {
  it('appends the entry to DECISIONS.md and commits it with the work, in one commit', async () => {
    p = await makeProject({ 'a.txt': 'a', '.yoke/context/DECISIONS.md': '# Decisions\n\n## 2026-11-30 — S1: Login\nJWT\n' }, { commit: true });
    await p.write('src/parser.ts', 'export {}\n');
    const { ctx } = makeContext(p.root, p.loopDir);
    const result = await createCommit.execute({ message: 'yoke: saga done after iteration 1', iteration: 1, decision: { entry: ENTRY } }, ctx);
    expect(result.sha).toMatch(/^[0-9a-f]{40}$/);
    expect(ledger()).toBe(`# Decisions\n\n## 2026-11-30 — S1: Login\nJWT\n\n${ENTRY}`);
    expect(await p.git('show', '--name-only', '--format=', 'HEAD')).toBe('.yoke/context/DECISIONS.md\nsrc/parser.ts');
    expect(await p.git('show', 'HEAD:.yoke/context/DECISIONS.md')).toBe(ledger()?.trimEnd());
    expect(await backups()).toEqual([]);
  });

  it('creates DECISIONS.md in an existing (empty) .yoke/context/', async () => {
    p = await makeProject({ 'a.txt': 'a' }, { commit: true });
    await mkdir(join(p.root, '.yoke/context'), { recursive: true });
    await p.write('b.txt', 'b');
    const { ctx } = makeContext(p.root, p.loopDir);
    await createCommit.execute({ message: 'done', iteration: 1, decision: { entry: ENTRY } }, ctx);
    expect(ledger()).toBe(ENTRY);
    expect(await p.git('show', '--name-only', '--format=', 'HEAD')).toBe('.yoke/context/DECISIONS.md\nb.txt');
  });

  it('without .yoke/context/ writes no entry and never creates the folder', async () => {
    p = await makeProject({ 'a.txt': 'a' }, { commit: true });
    await p.write('b.txt', 'b');
    const { ctx } = makeContext(p.root, p.loopDir);
    const result = await createCommit.execute({ message: 'done', iteration: 1, decision: { entry: ENTRY } }, ctx);
    expect(result.sha).toMatch(/^[0-9a-f]{40}$/);
    expect(existsSync(join(p.root, '.yoke'))).toBe(false);
    expect(await p.git('show', '--name-only', '--format=', 'HEAD')).toBe('b.txt');
  });

  it('leaves no orphan entry when the commit fails (HEAD moved away: refused), and the retry commits it once', async () => {
    p = await makeProject({ 'a.txt': 'a', '.yoke/context/DECISIONS.md': '# Decisions\n' }, { commit: true });
    const branch = await p.git('symbolic-ref', '--short', 'HEAD');
    const base = await p.git('rev-parse', 'HEAD');
    await p.git('checkout', '-q', '-b', 'other');
    await p.write('b.txt', 'b');
    const { ctx } = makeContext(p.root, p.loopDir);
    const params = { message: 'done', iteration: 1, head: { branch, sha: base }, decision: { entry: ENTRY } };
    await expect(createCommit.execute(params, ctx)).rejects.toThrow(/HEAD is on branch `other`/);
    expect(ledger()).toBe('# Decisions\n');
    expect(await backups()).toEqual([]);
    await p.git('checkout', '-q', branch);
    const result = await createCommit.execute(params, ctx);
    expect(result.sha).toMatch(/^[0-9a-f]{40}$/);
    expect(ledger()).toBe(`# Decisions\n\n${ENTRY}`);
  });

  it('takes the entry out again when nothing could be committed (DECISIONS.md ignored by git)', async () => {
    p = await makeProject({ 'a.txt': 'a', '.gitignore': '.yoke/\n' }, { commit: true });
    await mkdir(join(p.root, '.yoke/context'), { recursive: true });
    await writeFile(join(p.root, '.yoke/context/DECISIONS.md'), '# Decisions\n');
    const { ctx } = makeContext(p.root, p.loopDir);
    expect(await createCommit.execute({ message: 'done', iteration: 1, decision: { entry: ENTRY } }, ctx)).toEqual({ sha: null });
    expect(ledger()).toBe('# Decisions\n');
  });

  it('re-executed after a crash between the append and the commit, the entry is appended once', async () => {
    p = await makeProject({ 'a.txt': 'a', '.yoke/context/DECISIONS.md': '# Decisions\n' }, { commit: true });
    await p.write('b.txt', 'b');
    const { ctx } = makeContext(p.root, p.loopDir);
    // the first execution got as far as the append (its backup is on disk), then the process died
    await appendPendingDecision(p.root, p.loopDir, ctx.key, ENTRY);
    expect(ledger()).toBe(`# Decisions\n\n${ENTRY}`);
    expect(await createCommit.reconcile?.({ message: 'done', iteration: 1, decision: { entry: ENTRY } }, ctx)).toBeNull();
    await createCommit.execute({ message: 'done', iteration: 1, decision: { entry: ENTRY } }, ctx);
    expect(ledger()).toBe(`# Decisions\n\n${ENTRY}`);
    expect(await p.git('show', 'HEAD:.yoke/context/DECISIONS.md')).toBe(`# Decisions\n\n${ENTRY}`.trimEnd());
    expect(await backups()).toEqual([]);
  });
});
