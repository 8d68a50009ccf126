// store/stash/stash-operation.ts in-process: for random trees, stash → pop is the identity and the
// index only grows; a random sequence of pushes, pops and checkouts always matches a simple model.
import { linkSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { openFileJournal } from '../../../store/journal/file/open-file-journal.js';
import { entryToPop, foldStashIndex, type IndexEntry } from '../../../store/stash/stash-index.js';
import { performStashOp, type StashContext } from '../../../store/stash/stash-operation.js';
import { objectPath } from '../../../store/stash/stash-objects.js';
import { removeTree } from '../../../store/stash/stash-work.js';
import { workspacePaths } from '../../../store/session/workspace-paths.js';
import { loopNames, loopSnapshot, writeTree, type TreeNode, type TreeSpec } from '../../support/loop-tree.js';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) removeTree(root);
});

/** A `.loop/` with a journal, driven through the store functions directly. */
async function makeLoop() {
  const root = mkdtempSync(join(tmpdir(), 'yoke-stash-'));
  roots.push(root);
  const paths = workspacePaths(root);
  mkdirSync(paths.loopDir);
  writeFileSync(join(paths.loopDir, '.gitignore'), '.journal/\n.stash/\n');
  writeFileSync(join(paths.loopDir, '.keep'), 'a dotfile entry the stash never touches\n');
  const journal = await openFileJournal(paths.journal);
  const locate = (seq: number) => `${paths.journal}:${seq}`;
  const ctx: StashContext = { loopDir: paths.loopDir, stashDir: paths.stashDir, journal, failpoint: null, locate };
  const index = () => foldStashIndex(journal.records, locate);
  const lines = () => readFileSync(paths.journal, 'utf8').split('\n').filter(Boolean);
  return {
    root,
    loop: paths.loopDir,
    lines,
    index,
    stash: () => performStashOp(ctx, index(), { op: 'stash', push: { mode: 'unknown', message: null }, restore: null, init: null }),
    pop: () => performStashOp(ctx, index(), { op: 'pop', push: null, restore: entryToPop(index()), init: null }),
    checkout: (entry: IndexEntry) => performStashOp(ctx, index(), { op: 'checkout', push: { mode: 'loop', message: 'auto' }, restore: entry, init: null }),
    close: () => journal.close(),
  };
}

// ---- random trees --------------------------------------------------------------------------

const names = fc.constantFrom('a', 'b', 'plan.md', 'notes.md', 'ünïcødé', '日本語', '😀 x', 'with space', '.hidden', 'x.bin', 'd');
const fileNode = fc.record({
  kind: fc.constant('file' as const),
  content: fc.oneof(fc.constant(''), fc.string({ maxLength: 40 }), fc.uint8Array({ maxLength: 600 }).map((bytes) => Buffer.from(bytes))),
  mode: fc.constantFrom(0o644, 0o755, 0o600, 0o700, 0o444, 0o775),
  hardLink: fc.boolean(),
});
const linkNode = fc.record({ kind: fc.constant('link' as const), up: fc.nat(2), target: names });
type Node = { kind: 'file'; content: string | Buffer; mode: number; hardLink: boolean } | { kind: 'link'; up: number; target: string } | { kind: 'dir'; mode: number; children: Record<string, Node> };
const { node } = fc.letrec<{ node: Node; dir: Node }>((tie) => ({
  node: fc.oneof({ depthSize: 'small', withCrossShrink: true }, fileNode, fileNode, linkNode, tie('dir')),
  dir: fc.record({ kind: fc.constant('dir' as const), mode: fc.constantFrom(0o755, 0o700, 0o555), children: fc.dictionary(names, tie('node'), { maxKeys: 4 }) }),
}));
/** What a stash sees at the top of `.loop/`: dot names are left alone, so keep them out. */
const topTree = fc.dictionary(names.filter((name) => !name.startsWith('.')), node, { minKeys: 0, maxKeys: 5 });

/** Turn a random tree into a TreeSpec (links only point up as far as their depth allows). */
function toSpec(tree: Record<string, Node>, prefix = '', depth = 0, spec: TreeSpec = {}, hardLinks: string[] = []): { spec: TreeSpec; hardLinks: string[] } {
  for (const [name, child] of Object.entries(tree)) {
    const path = `${prefix}${name}`;
    let entry: TreeNode;
    if (child.kind === 'file') {
      entry = { content: child.content, mode: child.mode };
      if (child.hardLink) hardLinks.push(path);
    } else if (child.kind === 'link') {
      entry = { link: `${'../'.repeat(Math.min(child.up, depth))}${child.target}` };
    } else {
      entry = { dir: child.mode };
      spec[path] = entry;
      toSpec(child.children, `${path}/`, depth + 1, spec, hardLinks);
      continue;
    }
    spec[path] = entry;
  }
  return { spec, hardLinks };
}

/** Write the tree; each `hardLinks` file also gets a second name outside `.loop/`. */
function plant(root: string, loop: string, tree: Record<string, Node>): Map<string, string> {
  const { spec, hardLinks } = toSpec(tree);
  writeTree(loop, spec);
  const outside = new Map<string, string>();
  hardLinks.forEach((path, i) => {
    const twin = join(root, `twin-${i}`);
    rmSync(twin, { force: true });
    linkSync(join(loop, path), twin);
    outside.set(twin, readFileSync(twin).toString('base64'));
  });
  return outside;
}

function expectPrefix(after: string[], before: string[]): void {
  expect(after.length).toBeGreaterThan(before.length);
  expect(after.slice(0, before.length)).toEqual(before);
}

describe('stash → pop (fast-check, in-process)', () => {
  it('is the identity for random trees, leaves only dotfile entries between, and only appends to the index', async () => {
    await fc.assert(
      fc.asyncProperty(topTree, async (tree) => {
        const w = await makeLoop();
        try {
          const outside = plant(w.root, w.loop, tree);
          const before = loopSnapshot(w.loop);
          const lines0 = w.lines();

          const stashed = await w.stash();
          expect(stashed.changed).toBe(Object.keys(before).length > 0);
          expect(loopNames(w.loop)).toEqual(['.gitignore', '.journal', '.keep', ...(stashed.changed ? ['.stash'] : [])].sort());
          if (!stashed.changed) return;
          const lines1 = w.lines();
          expectPrefix(lines1, lines0);
          // a file with another hard link is copied: its twin keeps its bytes and is not the object
          for (const [twin, content] of outside) {
            expect(readFileSync(twin).toString('base64')).toBe(content);
            expect(lstatSync(twin).nlink).toBe(1);
          }

          await w.pop();
          expect(loopSnapshot(w.loop)).toEqual(before);
          expect(readFileSync(join(w.loop, '.keep'), 'utf8')).toContain('never touches');
          expectPrefix(w.lines(), lines1);
          expect(w.index().entries).toHaveLength(1);
          expect(w.index().entries[0]?.popped).toBe(true);
        } finally {
          await w.close();
        }
      }),
      { numRuns: 100 },
    );
  });

  it('identical files are stored once', async () => {
    const w = await makeLoop();
    writeTree(w.loop, { 'a.txt': 'same\n', 'b/c.txt': 'same\n', 'd.txt': { content: 'same\n', mode: 0o755 } });
    const { pushed } = await w.stash();
    const blobs = new Set(pushed?.entries.flatMap((entry) => (entry.type === 'file' ? [entry.blob] : [])));
    expect(blobs.size).toBe(1);
    const [blob = ''] = blobs;
    expect(readFileSync(objectPath(join(w.loop, '.stash'), blob), 'utf8')).toBe('same\n');
    await w.close();
  });
});

type Command = { kind: 'push'; tree: Record<string, Node> } | { kind: 'pop' } | { kind: 'checkout'; pick: number };

describe('push, pop and checkout in any order (fast-check model)', () => {
  it('every entry restores exactly what was stashed, pop takes the newest unpopped, the index only grows', async () => {
    const command: fc.Arbitrary<Command> = fc.oneof(
      topTree.map((tree) => ({ kind: 'push' as const, tree })),
      fc.constant({ kind: 'pop' as const }),
      fc.nat(20).map((pick) => ({ kind: 'checkout' as const, pick })),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(command, { minLength: 1, maxLength: 8 }), async (commands) => {
        const w = await makeLoop();
        try {
          const model: { snapshot: Record<string, string>; popped: boolean }[] = [];
          let lines = w.lines();
          for (const step of commands) {
            let changed = false;
            if (step.kind === 'push') {
              for (const name of loopNames(w.loop)) if (!name.startsWith('.')) removeTree(join(w.loop, name));
              plant(w.root, w.loop, step.tree);
              const current = loopSnapshot(w.loop);
              changed = (await w.stash()).changed;
              if (changed) model.push({ snapshot: current, popped: false });
              expect(loopNames(w.loop).filter((name) => !name.startsWith('.'))).toEqual([]);
            } else if (step.kind === 'pop') {
              const target = [...model].reverse().find((entry) => !entry.popped);
              const empty = loopNames(w.loop).every((name) => name.startsWith('.'));
              if (!target) {
                expect((await w.pop()).changed).toBe(false);
                continue;
              }
              if (!empty) {
                await expect(w.pop()).rejects.toThrow(/has files/);
                continue;
              }
              await w.pop();
              target.popped = true;
              changed = true;
              expect(loopSnapshot(w.loop)).toEqual(target.snapshot);
            } else {
              const entries = w.index().entries;
              const entry = entries[step.pick % Math.max(1, entries.length)];
              if (!entry) continue;
              const current = loopSnapshot(w.loop);
              const outcome = await w.checkout(entry);
              if (outcome.pushed) model.push({ snapshot: current, popped: false });
              changed = true;
              expect(loopSnapshot(w.loop)).toEqual(model[entries.indexOf(entry)]?.snapshot);
            }
            const now = w.lines();
            if (changed) expectPrefix(now, lines);
            else expect(now).toEqual(lines);
            lines = now;
            expect(w.index().entries.map((entry) => entry.popped)).toEqual(model.map((entry) => entry.popped));
          }
        } finally {
          await w.close();
        }
      }),
      { numRuns: 60 },
    );
  });
});
