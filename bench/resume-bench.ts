// Benchmark: what `yoke run` pays to resume a long run, measured as users meet it: the built CLI
// spawned in a project whose journal holds a 10k-iteration run `yoke run` resumes (read, check,
// fold, journal `run.resumed`, drive it to its end). With the fold checkpoint the runner saved near
// its end, and without it; `yoke status` (no status view) on the same journal alongside.
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import { CHECKPOINT_EVERY } from '../store/session/checkpoint-taker.js';
import { loadCheckpoint, readFromCheckpoint } from '../store/session/checkpoint-file.js';
import { both, rawParse, timed, verdict } from './bench-timing.js';
import { writeSyntheticRun } from './synthetic-run.js';

interface Spawned {
  ms: number;
  /** user + system CPU of the child, when /usr/bin/time is there to tell */
  cpuMs: number | null;
}

/** Spawn `node <args>` in `cwd`, timed; it must exit 0. */
function spawnTimed(args: string[], cwd: string): Spawned {
  const time = existsSync('/usr/bin/time') ? ['/usr/bin/time', '-f', 'yoke-bench-cpu %U %S'] : [];
  const command = [...time, process.execPath, ...args];
  const start = process.hrtime.bigint();
  const result = spawnSync(command[0] as string, command.slice(1), { cwd, encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0) throw new Error(`resume bench: ${args.join(' ')} exited ${result.status ?? result.signal}: ${result.stderr}`);
  const cpu = /yoke-bench-cpu ([\d.]+) ([\d.]+)/.exec(result.stderr);
  return { ms, cpuMs: cpu ? (Number(cpu[1]) + Number(cpu[2])) * 1000 : null };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

function describe(samples: Spawned[]): string {
  const cpu = samples.every((sample) => sample.cpuMs !== null) ? `, ${median(samples.map((sample) => sample.cpuMs as number)).toFixed(0)} ms CPU` : '';
  return `${median(samples.map((sample) => sample.ms)).toFixed(0)} ms wall${cpu} (median of ${samples.length}: ${samples.map((sample) => sample.ms.toFixed(0)).join(', ')})`;
}

/** Resume of an `iterations`-iteration loop run by a spawned `yoke run`, with and without its checkpoint. */
export async function resumeBench(work: string, yoke: string, quick: boolean, report: (name: string, lines: string[]) => void): Promise<void> {
  const iterations = quick ? 1000 : 10_000;
  const rounds = quick ? 1 : 3;
  const repo = join(work, 'resume-repo');
  const loopDir = join(repo, '.loop');
  const journalDir = join(loopDir, '.journal');
  mkdirSync(journalDir, { recursive: true });
  execFileSync('git', ['init', '-q'], { cwd: repo });
  const original = join(work, 'resume.jsonl');
  const originalCheckpoint = join(work, 'resume-checkpoint.json');
  // The checkpoint as far from the end as it gets: CHECKPOINT_EVERY records before it.
  const at = Math.max(1, iterations * 21 - CHECKPOINT_EVERY);
  const records = await writeSyntheticRun(original, iterations, { finished: false, checkpoint: { at, sidecar: originalCheckpoint }, loopDir });
  const journal = join(journalDir, 'journal.jsonl');
  const checkpoint = join(journalDir, 'checkpoint.json');
  /** The workspace as the interrupted run left it: its journal, with or without the checkpoint; no status view. */
  const restore = (withCheckpoint: boolean): void => {
    copyFileSync(original, journal);
    if (withCheckpoint) copyFileSync(originalCheckpoint, checkpoint);
    else rmSync(checkpoint, { force: true });
    rmSync(join(journalDir, 'status.json'), { force: true });
  };

  const samples = { node: [] as Spawned[], resumed: [] as Spawned[], full: [] as Spawned[], status: [] as Spawned[], statusFull: [] as Spawned[] };
  for (let round = 0; round < rounds; round += 1) {
    samples.node.push(spawnTimed(['-e', '0'], repo));
    restore(true);
    samples.resumed.push(spawnTimed([yoke, 'run', '--quiet'], repo));
    resumedToTheEnd(journal, records);
    restore(false);
    samples.full.push(spawnTimed([yoke, 'run', '--quiet'], repo));
    resumedToTheEnd(journal, records);
    restore(true);
    samples.status.push(spawnTimed([yoke, 'status'], repo));
    restore(false);
    samples.statusFull.push(spawnTimed([yoke, 'status'], repo));
  }
  // What stands in the way, in this process: the floor any full read stands on, and the checkpoint-forward read alone.
  const raw = timed(() => rawParse(readFileSync(original, 'utf8')));
  const saved = loadCheckpoint(originalCheckpoint);
  const forward = timed(() => (saved === null ? null : readFromCheckpoint(original, saved, true)));
  if (forward.value === null) throw new Error('the bench checkpoint should be trusted');
  rmSync(original);
  rmSync(originalCheckpoint);

  const resumedMs = median(samples.resumed.map((sample) => sample.ms));
  report(`resume: a spawned \`yoke run\` resuming a ${iterations}-iteration run (${records} records, the checkpoint ${CHECKPOINT_EVERY} records before the end)`, [
    `node -e 0:                                        ${describe(samples.node)}`,
    `yoke run, from the checkpoint:                    ${describe(samples.resumed)}; ${verdict('≤ 1000 ms for 10k iterations', resumedMs <= 1000, quick)}`,
    `yoke run, no checkpoint (every record read):      ${describe(samples.full)}`,
    `yoke status (no status view), from the checkpoint: ${describe(samples.status)}`,
    `yoke status (no status view), every record read:  ${describe(samples.statusFull)}`,
    `in-process: raw JSON.parse of every line ${both(raw)}; the read from the checkpoint (prefix hashed and kept, ${forward.value.records.length} records parsed and chain-checked) ${both(forward)}`,
  ]);
}

/** The resumed run was driven to its end: `run.resumed` and `run.finished` follow the records it resumed. */
function resumedToTheEnd(journal: string, records: number): void {
  const lines = readFileSync(journal, 'utf8').trimEnd().split('\n');
  const types = lines.slice(records).map((line) => (JSON.parse(line) as { type: string }).type);
  if (types[0] !== 'run.resumed' || types[types.length - 1] !== 'run.finished') throw new Error(`resume bench: the resumed run journaled ${types.join(', ')}`);
}
