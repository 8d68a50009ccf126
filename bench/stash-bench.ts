// Benchmark: `yoke stash` + `yoke stash pop` of a large .loop/ against tar of the same tree.
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

interface Timing {
  ms: number;
}

function timed(fn: () => void): Timing {
  const start = process.hrtime.bigint();
  fn();
  return { ms: Number(process.hrtime.bigint() - start) / 1e6 };
}

/** `files` files in 100-file folders, random content averaging `bytes / files`, a few empty or executable. */
function writeTree(loop: string, files: number, bytes: number): void {
  const average = Math.floor(bytes / files);
  const pool = randomBytes(Math.min(bytes, 4 * average + (1 << 20)));
  for (let i = 0; i < files; i += 1) {
    const dir = join(loop, `part-${Math.floor(i / 100)}`);
    if (i % 100 === 0) mkdirSync(dir, { recursive: true });
    const size = i % 97 === 0 ? 0 : Math.floor(average * (0.5 + ((i * 7919) % 1000) / 1000));
    const offset = (i * 104729) % Math.max(1, pool.length - size);
    // a per-file header keeps every file distinct (tar cannot deduplicate, so neither may we)
    const path = join(dir, `file-${i}.dat`);
    writeFileSync(path, Buffer.concat([Buffer.from(`${i}\n`), pool.subarray(offset, offset + size)]));
    if (i % 50 === 0) chmodSync(path, 0o755);
  }
}

function count(dir: string): { files: number; bytes: number } {
  let files = 0;
  let bytes = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.') && dir.endsWith('.loop')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      const inner = count(path);
      files += inner.files;
      bytes += inner.bytes;
    } else {
      files += 1;
      bytes += statSync(path).size;
    }
  }
  return { files, bytes };
}

function must(result: ReturnType<typeof spawnSync>, what: string): void {
  if (result.status !== 0) throw new Error(`${what} failed (exit ${result.status ?? 'signal'}): ${String(result.stderr)}`);
}

/**
 * Stash and pop the tree with the built CLI (process start-up included), against `tar -c`, `rm -rf`
 * and `tar -x` of the same names (the same work: capture, empty, restore). Best of `rounds`.
 */
export function stashBench(work: string, yoke: string, quick: boolean, report: (name: string, lines: string[]) => void): void {
  const files = quick ? 500 : 10_000;
  const bytes = quick ? 2_000_000 : 100_000_000;
  const rounds = quick ? 1 : 2;
  const repo = join(work, 'stash-repo');
  const loop = join(repo, '.loop');
  mkdirSync(loop, { recursive: true });
  execFileSync('git', ['init', '-q'], { cwd: repo });
  writeFileSync(join(loop, '.gitignore'), '.journal/\n.stash/\n');
  writeTree(loop, files, bytes);
  const shape = count(loop);
  const archive = join(work, 'stash-bench.tar');
  let tar = Infinity;
  let stash = Infinity;
  let pop = Infinity;
  // Each timed step starts from a clean page cache state (`sync`, untimed): yoke fsyncs its journal,
  // and must not be charged for writing back what the step before it (tar's files) left dirty.
  const settle = (): void => void spawnSync('sync');
  for (let round = 0; round < rounds; round += 1) {
    const names = readdirSync(loop).filter((name) => !name.startsWith('.'));
    settle();
    const tarTime = timed(() => {
      must(spawnSync('tar', ['-cf', archive, '-C', loop, ...names]), 'tar -c');
      for (const name of names) rmSync(join(loop, name), { recursive: true, force: true });
      must(spawnSync('tar', ['-xf', archive, '-C', loop]), 'tar -x');
    });
    rmSync(archive, { force: true });
    tar = Math.min(tar, tarTime.ms);
    settle();
    stash = Math.min(stash, timed(() => must(spawnSync(process.execPath, [yoke, 'stash'], { cwd: repo }), 'yoke stash')).ms);
    settle();
    pop = Math.min(pop, timed(() => must(spawnSync(process.execPath, [yoke, 'stash', 'pop'], { cwd: repo }), 'yoke stash pop')).ms);
  }
  const after = count(loop);
  if (after.files !== shape.files || after.bytes !== shape.bytes) throw new Error('stash bench: pop did not restore the tree');
  report(`stash: yoke stash + yoke stash pop of ${shape.files} files / ${(shape.bytes / 1e6).toFixed(0)} MB vs tar (best of ${rounds})`, [
    `tar -c + rm -rf + tar -x: ${tar.toFixed(0)} ms`,
    `yoke stash: ${stash.toFixed(0)} ms, yoke stash pop: ${pop.toFixed(0)} ms (each includes node start-up, the lock and the journal)`,
    `ratio: ${((stash + pop) / tar).toFixed(2)}x (goal at 10k files / 100 MB: ≤ 1.5x${quick ? '; this small tree mostly measures node start-up' : ''})`,
  ]);
}
