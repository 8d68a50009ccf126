// store/stash/stash-index.ts: the stash index as a fold of the journal's stash records.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openFileJournal } from '../../../store/journal/file/open-file-journal.js';
import type { RecordDraft } from '../../../store/journal/record.js';
import { stashId, treeHash, type StashEntry, type StashOp } from '../../../store/stash/stash-entry.js';
import { entryIdHolds, entryToPop, foldStashIndex, resolveStashPrefix, type StashIndex } from '../../../store/stash/stash-index.js';
import { YokeError } from '../../../errors/yoke-error.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const ws = { run: null, machine: null, mv: null } as const;
const entries: StashEntry[] = [{ path: 'plan.md', type: 'file', mode: 0o644, size: 2, blob: 'b'.repeat(64) }];

/** A journal in a temp folder with helpers that stage one whole operation (the fold reads staged records). */
async function journal() {
  const dir = mkdtempSync(join(tmpdir(), 'yoke-stash-index-'));
  dirs.push(dir);
  const path = join(dir, 'journal.jsonl');
  const j = await openFileJournal(path);
  const append = (draft: RecordDraft) => j.stage(draft);
  const begun = (op: StashOp, push: string | null, restore: string | null = null) =>
    append({ ...ws, type: 'stash.begun', payload: { op, work: '0123456789abcdef', push, restore, init: null } });
  const pushed = (id: string, op: StashOp = 'stash') =>
    append({ ...ws, type: 'stash.pushed', payload: { id, tree: treeHash(entries), mode: 'loop', message: null, via: op, files: 1, bytes: 2, entries } });
  const stash = (id: string) => {
    begun('stash', id);
    pushed(id);
    append({ ...ws, type: 'stash.cleared', payload: { id } });
    append({ ...ws, type: 'stash.ended', payload: { op: 'stash', outcome: 'done' } });
  };
  const pop = (id: string) => {
    begun('pop', null, id);
    append({ ...ws, type: 'stash.restored', payload: { id, via: 'pop' } });
    append({ ...ws, type: 'stash.ended', payload: { op: 'pop', outcome: 'done' } });
  };
  return { j, path, append, begun, pushed, stash, pop, fold: () => foldStashIndex(j.records, (seq) => `${path}:${seq}`) };
}

const id = (prefix: string) => prefix.padEnd(64, '0');

describe('foldStashIndex', () => {
  it('lists entries in journal order; pop marks the entry popped and it stays in the index', async () => {
    const t = await journal();
    t.stash(id('aa'));
    t.stash(id('bb'));
    t.pop(id('bb'));
    const index = t.fold();
    expect(index.open).toBeNull();
    expect(index.entries.map((e) => [e.id.slice(0, 2), e.cleared, e.popped])).toEqual([['aa', true, false], ['bb', true, true]]);
    expect(index.entries[1]?.restores).toEqual([expect.objectContaining({ via: 'pop', seq: 10 })]);
  });

  it('reports an operation that began but never ended as open, with what it already did', async () => {
    const t = await journal();
    t.begun('checkout', id('cc'), null);
    t.pushed(id('cc'), 'checkout');
    expect(t.fold().open).toMatchObject({ begun: { op: 'checkout' }, seq: 1, pushed: { id: id('cc') }, cleared: false, restored: false });
  });

  it.each<[string, (t: Awaited<ReturnType<typeof journal>>) => void, RegExp]>([
    ['a push nobody announced', (t) => t.pushed(id('aa')), /:1: stash\.pushed was not announced/],
    ['a push of another id', (t) => { t.begun('stash', id('aa')); t.pushed(id('bb')); }, /:2: stash\.pushed was not announced/],
    ['an operation inside an open one', (t) => { t.begun('stash', id('aa')); t.begun('pop', null, id('aa')); }, /:2: stash\.begun starts an operation while the one begun at record 1 is unfinished/],
    ['a clear of another entry', (t) => { t.begun('stash', id('aa')); t.pushed(id('aa')); t.append({ ...ws, type: 'stash.cleared', payload: { id: id('bb') } }); }, /:3: stash\.cleared does not follow/],
    ['a restore nobody asked for', (t) => { t.stash(id('aa')); t.begun('pop', null, id('aa')); t.append({ ...ws, type: 'stash.restored', payload: { id: id('bb'), via: 'pop' } }); }, /:6: stash\.restored does not belong/],
    ['an end without a beginning', (t) => t.append({ ...ws, type: 'stash.ended', payload: { op: 'pop', outcome: 'done' } }), /:1: stash\.ended ends an operation that was not begun/],
    ['a repeated id', (t) => { t.stash(id('aa')); t.begun('stash', id('aa')); t.pushed(id('aa')); }, /repeats the id/],
  ])('refuses the workspace (exit 3) on %s, naming the record', async (_name, write, why) => {
    const t = await journal();
    write(t);
    expect(() => t.fold()).toThrow(YokeError);
    expect(() => t.fold()).toThrow(why);
  });
});

describe('entryToPop', () => {
  it('is the newest entry not popped yet, then the one before, then none', async () => {
    const t = await journal();
    t.stash(id('aa'));
    t.stash(id('bb'));
    expect(entryToPop(t.fold())?.id).toBe(id('bb'));
    t.pop(id('bb'));
    expect(entryToPop(t.fold())?.id).toBe(id('aa'));
    t.pop(id('aa'));
    expect(entryToPop(t.fold())).toBeNull();
  });
});

describe('resolveStashPrefix', () => {
  let index: StashIndex;
  beforeAll(async () => {
    const t = await journal();
    t.stash(id('abc1'));
    t.stash(id('abc2'));
    t.stash(id('f0'));
    index = t.fold();
  });

  it('finds the one entry a prefix names, in any case', () => {
    expect(resolveStashPrefix(index, 'abc1').id).toBe(id('abc1'));
    expect(resolveStashPrefix(index, 'F').id).toBe(id('f0'));
    expect(resolveStashPrefix(index, id('abc2')).id).toBe(id('abc2'));
  });

  it.each([
    ['abc', /abc is ambiguous: it starts 2 stash entries: abc100000000 .*abc200000000 .*give more digits/],
    ['9', /no stash entry id starts with 9/],
    ['xyz', /`xyz` is not a stash id/],
    ['', /is not a stash id/],
  ])('refuses %j as a usage error naming the candidates', (prefix, why) => {
    expect(() => resolveStashPrefix(index, prefix)).toThrow(why);
    try {
      resolveStashPrefix(index, prefix);
    } catch (error) {
      expect((error as YokeError).code).toBe('usage');
    }
  });
});

describe('entryIdHolds', () => {
  it('holds for an id derived from the entry, and fails once any part was edited', async () => {
    const t = await journal();
    t.stash(id('aa'));
    const now = Date.parse('2026-01-02T03:04:05.678Z');
    const tree = treeHash(entries);
    const real = stashId({ tree, mode: 'loop', message: 'm', time: new Date(now).toISOString(), parent: t.j.head.hash });
    t.j.stage({ ...ws, type: 'stash.begun', payload: { op: 'stash', work: '0123456789abcdef', push: real, restore: null, init: null } }, now);
    t.j.stage({ ...ws, type: 'stash.pushed', payload: { id: real, tree, mode: 'loop', message: 'm', via: 'stash', files: 1, bytes: 2, entries } }, now);
    await t.j.flush();
    const [forged, entry] = t.fold().entries;
    if (!entry || !forged) throw new Error('missing entries');
    expect(entryIdHolds(entry)).toBe(true);
    expect(entryIdHolds(forged)).toBe(false);
    expect(entryIdHolds({ ...entry, message: 'edited' })).toBe(false);
    expect(entryIdHolds({ ...entry, mode: 'brute' })).toBe(false);
    expect(entryIdHolds({ ...entry, entries: entries.map((e) => ({ ...e, mode: 0o755 })) })).toBe(false);
  });
});
