// What the stash commands refuse, and that a refusal changes nothing: links leading out of .loop/,
// crafted journal records, damaged objects, a live run's lock, nothing to pop, special files.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stashId, treeHash, type StashEntry } from '../../store/stash/stash-entry.js';
import { expectRefusal } from '../support/cli-expect.js';
import { agentCalls } from '../support/fake-agent-script.js';
import { rewriteJournal } from '../support/journal-edit.js';
import { journalPath, readJournal } from '../support/journal-records.js';
import { confHead } from '../support/loop-conf.js';
import { makeLoopWorkspace } from '../support/loop-workspace.js';
import { loopNames, loopSnapshot, writeTree } from '../support/loop-tree.js';
import { markProcesses, waitUntil } from '../support/process-liveness.js';
import { makeStashWorkspace, readIndex, yokeJson, yokeOk, type EntryJson } from '../support/stash-workspace.js';
import { snapshotTree } from '../support/tree-snapshot.js';
import { cleanupAfterEach } from '../support/e2e-cleanup.js';
import { runYoke, startYoke, type Workspace } from '../support/workspace.js';

const TIMEOUT = 30_000;
const { workspaces, leftoverPids } = cleanupAfterEach();

async function setup(tree: Parameters<typeof makeStashWorkspace>[0] = {}) {
  const ws = await makeStashWorkspace(tree);
  workspaces.push(ws);
  return ws;
}

describe('links are stored as links, and never lead a restore out of .loop/', () => {
  it('stash, clean and mode refuse a link pointing outside .loop/ (exit 2) before anything changes', async () => {
    const ws = await setup({ 'yoke.conf': 'mode loop\nagent cmd true\n', 'plan.md': 'p\n', 'inside': { link: 'plan.md' } });
    const cases: Array<[string, string[]]> = [['/etc/passwd', ['stash']], ['../../outside.txt', ['clean']], ['sub/../../x', ['mode', 'brute']]];
    for (const [target, args] of cases) {
      writeTree(ws.loop, { 'sub/out': { link: target } });
      const before = await snapshotTree(ws.path);
      const result = await runYoke(ws, args);
      expectRefusal(result, 2, /cannot stash \.loop\/sub\/out: it is a symbolic link and .*Nothing was changed/);
      expect(await snapshotTree(ws.path)).toEqual(before);
      rmSync(join(ws.loop, 'sub'), { recursive: true });
    }
    expect(readIndex(ws).entries).toEqual([]);
  }, TIMEOUT);

  describe('a crafted stash record (valid JSON, re-chained, even with a matching id) is refused at restore with exit 3', () => {
    /** Stash a small tree, then rewrite its manifest with `craft` and re-chain the journal (recomputing the id unless `forge`). */
    async function crafted(craft: (entries: StashEntry[]) => StashEntry[], forge = false) {
      const ws = await setup({ 'a.txt': 'a\n', 'dir/b.txt': 'b\n', 'link': { link: 'a.txt' } });
      await yokeOk(ws, ['stash']);
      let oldId = '';
      let newId = '';
      const begun: { prev?: string; ts?: string } = {};
      rewriteJournal(journalPath(ws.path), (record) => {
        const payload = record.payload as Record<string, unknown>;
        if (record.type === 'stash.begun') Object.assign(begun, { prev: record.prev, ts: record.ts });
        if (record.type === 'stash.pushed') {
          oldId = payload.id as string;
          payload.entries = craft(payload.entries as StashEntry[]);
          if (!forge) {
            payload.tree = treeHash(payload.entries as StashEntry[]);
            payload.id = stashId({ tree: payload.tree as string, mode: 'unknown', message: null, time: begun.ts ?? '', parent: begun.prev ?? '' });
          }
          newId = payload.id as string;
        }
      });
      rewriteJournal(journalPath(ws.path), (record) => {
        const payload = record.payload as Record<string, unknown>;
        for (const key of ['push', 'id']) if (payload[key] === oldId) payload[key] = newId;
      });
      return ws;
    }

    it.each<[string, (entries: StashEntry[]) => StashEntry[], RegExp]>([
      ['a `..` path', (entries) => entries.map((e) => (e.path === 'a.txt' ? { ...e, path: '../escape.txt' } : e)), /\.\.\/escape\.txt: it contains `\.\.`/],
      ['an absolute path', (entries) => entries.map((e) => (e.path === 'a.txt' ? { ...e, path: '/tmp/yoke-escape.txt' } : e)), /it is absolute/],
      ['a link pointing out', (entries) => entries.map((e) => (e.type === 'symlink' ? { ...e, target: '../../escape' } : e)), /link: it points outside \.loop\//],
      ['a file under a link', (entries) => [...entries, { path: 'link/x.txt', type: 'file', mode: 0o644, size: 2, blob: 'a'.repeat(64) }], /its folder link is not a folder/],
      ['a dotfile name', (entries) => entries.map((e) => (e.path === 'a.txt' ? { ...e, path: '.journal' } : e)), /would replace a dotfile entry/],
    ])('%s', async (_name, craft, why) => {
      const ws = await crafted(craft);
      const before = await snapshotTree(ws.path);
      const result = await runYoke(ws, ['stash', 'pop']);
      expectRefusal(result, 3, new RegExp(`journal\\.jsonl:2: stash entry [0-9a-f]{12} is unsafe to restore \\(.*${why.source}.*Nothing was changed`));
      expect(await snapshotTree(ws.path)).toEqual(before);
      expect(existsSync(join(ws.path, 'escape.txt')) || existsSync('/tmp/yoke-escape.txt')).toBe(false);
    }, TIMEOUT);

    it('an edited manifest whose id no longer matches', async () => {
      const ws = await crafted((entries) => entries.map((e) => (e.type === 'file' ? { ...e, mode: 0o777 } : e)), true);
      const before = await snapshotTree(ws.path);
      expectRefusal(await runYoke(ws, ['stash', 'pop']), 3, /does not match its id/);
      expect(await snapshotTree(ws.path)).toEqual(before);
    }, TIMEOUT);
  });
});

describe('damaged stash content', () => {
  it('an object whose bytes no longer match its hash refuses the restore (exit 3); .loop/ stays as it was', async () => {
    const ws = await setup({ 'a.txt': 'original\n', 'b.txt': 'other\n' });
    await yokeOk(ws, ['stash']);
    const objects = join(ws.loop, '.stash', 'objects');
    const [first] = readdirSync(objects).sort();
    if (!first) throw new Error('no object stored');
    chmodSync(join(objects, first), 0o644);
    writeFileSync(join(objects, first), 'tampered\n');
    const before = await snapshotTree(ws.path);

    expectRefusal(await runYoke(ws, ['stash', 'pop']), 3, /does not hold the content the stash recorded/);
    expect(await snapshotTree(ws.path)).toEqual(before);
    expect(loopNames(ws.loop)).toEqual(['.gitignore', '.journal', '.stash']);
  }, TIMEOUT);
});

describe('one writer per workspace', () => {
  it('while a run holds the lock, stash, pop, checkout, clean and mode exit 3 and change nothing; stash list still reads', async () => {
    const { ws, env } = await makeLoopWorkspace({ conf: [...confHead(3), 'commit off'], script: { default: { stdout: 'working\n', hang: true } } });
    workspaces.push(ws);
    const run = startYoke(ws, ['run'], { env });
    try {
      await refusedWhileRunning(ws, env, run.pid ?? 0);
    } finally {
      run.kill('SIGINT');
    }
    expect((await run).exitCode).toBe(130);
  }, TIMEOUT);

  async function refusedWhileRunning(ws: Workspace, env: { FAKE_AGENT_LOG: string }, pid: number): Promise<void> {
    const started = await waitUntil(async () => (await readJournal(ws)).some((r) => r.type === 'process.spawned') && (await agentCalls(env.FAKE_AGENT_LOG)).length === 1, 15_000);
    expect(started, 'the run started its agent').toBe(true);
    const [call] = await agentCalls(env.FAKE_AGENT_LOG);
    if (call) leftoverPids.push(...markProcesses(call.pid));
    // The running yoke keeps its heartbeat and status view fresh: they are its files, not the refused commands'.
    const tree = async () => {
      const { ['.loop/.journal/heartbeat.json']: _beat, ['.loop/.journal/status.json']: _view, ...rest } = await snapshotTree(ws.path);
      return rest;
    };
    const before = await tree();

    for (const args of [['stash'], ['stash', 'pop'], ['stash', 'checkout', 'abc'], ['clean'], ['mode', 'brute']]) {
      expectRefusal(await runYoke(ws, args), 3, new RegExp(`another yoke \\(yoke run ${pid}\\) is working in this workspace`));
    }
    const list = await runYoke(ws, ['stash', 'list']);
    expect(list.exitCode, list.stderr).toBe(0);
    expect(list.stdout).toBe('The stash is empty.');
    expect(await tree()).toEqual(before);
  }
});

describe('nothing to do', () => {
  it('pop with an empty stash, with everything popped, or into a non-empty .loop/ is a clear error (exit 2), nothing changed', async () => {
    const ws = await setup({ 'a.txt': 'a\n' });
    const untouched = async (args: string[], why: RegExp) => {
      const before = await snapshotTree(ws.path);
      expectRefusal(await runYoke(ws, args), 2, why);
      expect(await snapshotTree(ws.path)).toEqual(before);
    };
    await untouched(['stash', 'pop'], /nothing to pop: the stash is empty/);
    await yokeOk(ws, ['stash']);
    writeTree(ws.loop, { 'b.txt': 'b\n' });
    await untouched(['stash', 'pop'], /\.loop\/ has files \(b\.txt\); `yoke stash` them first/);
    rmSync(join(ws.loop, 'b.txt'));
    await yokeOk(ws, ['stash', 'pop']);
    rmSync(join(ws.loop, 'a.txt'));
    await untouched(['stash', 'pop'], /nothing to pop: all 1 stash entries were popped already; `yoke stash checkout <id>`/);
  }, TIMEOUT);

  it('stash with only dotfiles in .loop/ records nothing; stash list says the stash is empty', async () => {
    const ws = await setup();
    const result = await yokeOk(ws, ['stash']);
    expect(result.stdout).toBe('Nothing to stash: .loop/ holds only dotfiles.');
    expect(readIndex(ws).entries).toEqual([]);
    expect((await yokeOk(ws, ['stash', 'list'])).stdout).toBe('The stash is empty.');
  }, TIMEOUT);
});

describe('usage errors change nothing', () => {
  it('an unknown mode, clean without a known mode, and a special file in .loop/ exit 2', async () => {
    const ws = await setup({ 'plan.md': 'no conf here\n' });
    const before = await snapshotTree(ws.path);
    expectRefusal(await runYoke(ws, ['mode', 'turbo']), 2, /unknown mode `turbo`; use one of: loop, brute, saga, goal/);
    expectRefusal(await runYoke(ws, ['clean']), 2, /names no mode this yoke knows.*`yoke stash` to park everything/);
    expect((await snapshotTree(ws.path))['.loop/plan.md']).toEqual(before['.loop/plan.md']);
    execFileSync('mkfifo', [join(ws.loop, 'pipe')]);
    const withFifo = loopSnapshot(ws.loop);
    expectRefusal(await runYoke(ws, ['stash']), 2, /cannot stash \.loop\/pipe: it is a named pipe/);
    expect(loopSnapshot(ws.loop)).toEqual(withFifo);
  }, TIMEOUT);
});

describe('stash list', () => {
  it('shows id, time, mode tag, origin, size, state and message, newest first', async () => {
    const ws = await setup({ 'yoke.conf': 'mode goal\n', 'a.txt': 'a\n' });
    const first = await yokeJson<{ stashed: EntryJson }>(ws, ['stash', '-m', 'first one']);
    writeTree(ws.loop, { 'b.txt': 'bb\n' });
    await yokeOk(ws, ['stash', 'checkout', first.stashed.id.slice(0, 6)]);
    const text = (await yokeOk(ws, ['stash', 'list'])).stdout.split('\n');
    expect(text[0]).toMatch(/^ID\s+TIME\s+MODE\s+VIA\s+FILES\s+SIZE\s+STATE\s+MESSAGE$/);
    expect(text[1]).toMatch(/^[0-9a-f]{12} {2}\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ {2}unknown {2}checkout {2}1 +3 B +- +before yoke stash checkout [0-9a-f]{12}$/);
    expect(text[2]).toMatch(new RegExp(`^${first.stashed.id.slice(0, 12)}  .*  goal +stash +2 +12 B +restored +first one$`));
  }, TIMEOUT);
});
