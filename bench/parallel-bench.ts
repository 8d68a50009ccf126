// Benchmark (yoke issue #16): parallel stories. The same story list of independent stories, each
// worked by a scripted `cmd` agent that sleeps, run with `--parallel 1` and with `--parallel 4`,
// one after the other in fresh repositories, on the same machine in the same run. The ratio of the
// two wall times is the figure; the integration lane's own cost per story (rebase and landing, the
// gates excluded) is read from the parallel run's journal.
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { verdict } from './bench-timing.js';
import { makeRepo } from './iteration-bench.js';

type Report = (name: string, lines: string[]) => void;

/** The target: 8 stories of 2 s with `--parallel 4` take at most this share of `--parallel 1`'s wall time. */
const PARALLEL_TARGET = 0.35;

/** Effect kinds of the integration lane and the lanes' own bookkeeping (the gates, `check.run` and `acceptance.check`, are excluded). */
const INTEGRATION_KINDS = ['candidate.rebase', 'candidate.commit', 'story.land', 'story.pass', 'worktree.create', 'worktree.remove'];

function storyList(count: number): string {
  const ids = Array.from({ length: count }, (_, i) => `S${i + 1}`);
  return `stories:\n${ids.map((id) => `  - id: ${id}\n    title: Story ${id}\n    acceptance:\n      - text: its file exists\n        check: test -f out-${id}.txt\n`).join('')}`;
}

/** A fresh project with the story list and a scripted agent that sleeps `sleepS`, then writes its story's file. */
function project(dir: string, yoke: string, stories: number, sleepS: number): string {
  makeRepo(dir);
  const git = (...args: string[]): void => void execFileSync('git', args, { cwd: dir, stdio: 'ignore' });
  execFileSync(process.execPath, [yoke, 'init', 'stories'], { cwd: dir, stdio: 'ignore' });
  const agent = join(dir, '..', `${dir.split('/').at(-1) ?? 'p'}-agent.sh`);
  writeFileSync(agent, `#!/bin/sh
story=$(grep -o '^### [A-Za-z0-9_-]*:' | head -1 | sed 's/^### //; s/:$//')
sleep ${sleepS}
echo "work for $story" > "out-$story.txt"
printf 'STATUS: DONE\\nDecision: wrote out-%s.txt\\n' "$story" > .loop/notes.md
`);
  writeFileSync(join(dir, '.loop', 'yoke.conf'), `mode stories\nagent cmd sh ${agent}\nguard tree true\n`);
  writeFileSync(join(dir, '.loop', 'prd.yaml'), storyList(stories));
  git('add', '-A');
  git('commit', '-qm', 'stories');
  return dir;
}

/** Wall milliseconds of `yoke run --parallel N` in `dir` (a failed run throws). */
function run(dir: string, yoke: string, parallel: number): number {
  const start = process.hrtime.bigint();
  // the lanes' worktrees under the bench's own folder, not the user's state home
  const env = { ...process.env, XDG_STATE_HOME: join(dirname(dir), 'state') };
  const result = spawnSync(process.execPath, [yoke, 'run', '--quiet', '--parallel', String(parallel)], { cwd: dir, encoding: 'utf8', env });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0) throw new Error(`the parallel benchmark's yoke run --parallel ${parallel} failed with exit ${String(result.status ?? result.signal)} in ${dir}: ${result.stderr.trim().split('\n').slice(-3).join(' / ')}`);
  return ms;
}

/** Mean milliseconds per story of the integration kinds, from effect.started → effect.completed timestamps. */
function integrationPerStory(journal: string, stories: number): { total: number; byKind: [string, number][] } {
  const started = new Map<string, number>();
  const byKind = new Map<string, number>();
  for (const line of readFileSync(journal, 'utf8').split('\n')) {
    if (line === '') continue;
    const record = JSON.parse(line) as { type: string; ts: string; payload: { key?: string; kind?: string } };
    const { key, kind } = record.payload;
    if (key === undefined || kind === undefined || !INTEGRATION_KINDS.includes(kind)) continue;
    if (record.type === 'effect.started') started.set(key, Date.parse(record.ts));
    if (record.type === 'effect.completed' && started.has(key)) byKind.set(kind, (byKind.get(kind) ?? 0) + Date.parse(record.ts) - (started.get(key) ?? 0));
  }
  const perStory = [...byKind].map(([kind, ms]): [string, number] => [kind, ms / stories]).sort((a, b) => b[1] - a[1]);
  return { total: perStory.reduce((sum, [, ms]) => sum + ms, 0), byKind: perStory };
}

/** `--parallel 1` against `--parallel 4` on the same independent stories, in the same run. */
export function parallelBench(work: string, yoke: string, quick: boolean, report: Report): void {
  const stories = quick ? 4 : 8;
  const sleepS = quick ? 0.2 : 2;
  const serial = run(project(join(work, 'parallel-1'), yoke, stories, sleepS), yoke, 1);
  const parallelDir = project(join(work, 'parallel-4'), yoke, stories, sleepS);
  const parallel = run(parallelDir, yoke, 4);
  const ratio = parallel / serial;
  const integration = integrationPerStory(join(parallelDir, '.loop', '.journal', 'journal.jsonl'), stories);
  report(`parallel stories: ${stories} independent stories, a \`cmd\` agent sleeping ${sleepS} s, \`true\` guard`, [
    `--parallel 1: ${(serial / 1000).toFixed(1)} s wall (${(serial / stories / 1000).toFixed(2)} s/story; the agent's own sleep is ${sleepS} s)`,
    `--parallel 4: ${(parallel / 1000).toFixed(1)} s wall`,
    `ratio ${ratio.toFixed(2)}x (${verdict(`≤ ${PARALLEL_TARGET}x`, ratio <= PARALLEL_TARGET, quick, 'the integration lane is serial: every story is rebased, re-gated and landed one at a time')})`,
    `integration lane per story, gates excluded (journal timestamps, write-ahead fsync included): ${integration.total.toFixed(0)} ms = ${integration.byKind.map(([kind, ms]) => `${kind} ${ms.toFixed(0)}`).join(', ')}`,
  ]);
}
