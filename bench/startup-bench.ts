// Benchmark: start-up of `yoke --version`, `status` and every read command against `node -e 0`, in one interleaved run.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { verdict } from './bench-timing.js';

interface Command {
  name: string;
  args: string[];
  /** run before each timed spawn (not timed) */
  before?: () => void;
}

/** Median of spawn wall times, one command after the other in each round so load drifts hit all alike. */
function measure(commands: Command[], rounds: number, cwd: string): Map<string, number> {
  const times = new Map<string, number[]>(commands.map((command) => [command.name, []]));
  for (let round = 0; round < rounds; round += 1) {
    for (const command of commands) {
      command.before?.();
      const start = process.hrtime.bigint();
      const result = spawnSync(process.execPath, command.args, { cwd, stdio: 'ignore' });
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      if (result.status !== 0) throw new Error(`${command.name} exited ${result.status ?? result.signal}`);
      times.get(command.name)?.push(ms);
    }
  }
  const medians = new Map<string, number>();
  for (const [name, list] of times) {
    const sorted = [...list].sort((a, b) => a - b);
    medians.set(name, sorted[Math.floor(sorted.length / 2)] ?? Number.NaN);
  }
  return medians;
}

/** A workspace whose journal comes from a real `yoke run` of `iterations` iterations (agent, guard, commit each). */
function realisticWorkspace(work: string, yoke: string, iterations: number): string {
  const repo = join(work, 'startup-repo');
  mkdirSync(repo, { recursive: true });
  execFileSync('git', ['init', '-q'], { cwd: repo });
  execFileSync('git', ['config', 'user.name', 'bench'], { cwd: repo });
  execFileSync('git', ['config', 'user.email', 'bench@example.invalid'], { cwd: repo });
  const agent = join(work, 'startup-agent.sh');
  writeFileSync(agent, [
    '#!/bin/sh',
    'cat >/dev/null',
    'echo "iteration $YOKE_ITERATION" >> work.txt',
    `printf '{"input_tokens":1200,"output_tokens":300,"cost_usd":0.01}' > "$YOKE_USAGE_FILE"`,
    `if [ "$YOKE_ITERATION" -ge ${iterations} ]; then printf 'STATUS: DONE\\n' > .loop/notes.md; else printf 'STATUS: IN_PROGRESS\\n' > .loop/notes.md; fi`,
    '',
  ].join('\n'));
  execFileSync(process.execPath, [yoke, 'init', 'loop'], { cwd: repo, stdio: 'ignore' });
  writeFileSync(join(repo, '.loop', 'yoke.conf'), `mode loop\nagent cmd sh ${agent}\nmax-iterations ${iterations}\nguard ok true\ncommit each\n`);
  execFileSync('git', ['add', '-A'], { cwd: repo });
  execFileSync('git', ['commit', '-qm', 'init'], { cwd: repo });
  const run = spawnSync(process.execPath, [yoke, 'run', '--quiet'], { cwd: repo, stdio: 'ignore' });
  if (run.status !== 0) throw new Error(`startup bench: yoke run exited ${run.status ?? run.signal}`);
  return repo;
}

/** What the start-up bench spawns: each command on the small journal, with its target ratio to `node -e 0`. */
const STARTUP_COMMANDS: readonly { label: string; args: string[]; target?: number }[] = [
  { label: 'yoke --version', args: ['--version'], target: 1.2 },
  { label: 'yoke status (status view matches the journal)', args: ['status'], target: 1.2 },
  { label: 'yoke --help', args: ['--help'], target: 1.5 },
  { label: 'yoke runs', args: ['runs'], target: 1.5 },
  { label: 'yoke replay', args: ['replay'], target: 1.5 },
  { label: 'yoke usage', args: ['usage'], target: 1.5 },
  { label: 'yoke stash list', args: ['stash', 'list'], target: 1.5 },
  { label: 'yoke config check', args: ['config', 'check'], target: 1.5 },
  { label: 'yoke inspect', args: ['inspect'], target: 1.5 },
];

/** Every read command and `status` (with and without its view), each against `node -e 0`. */
export function startupBench(work: string, yoke: string, quick: boolean, report: (name: string, lines: string[]) => void): void {
  const iterations = quick ? 3 : 30;
  const rounds = quick ? 5 : 20;
  const repo = realisticWorkspace(work, yoke, iterations);
  const view = join(repo, '.loop', '.journal', 'status.json');
  const commands: Command[] = [
    { name: 'node', args: ['-e', '0'] },
    ...STARTUP_COMMANDS.map((command) => ({ name: command.label, args: [yoke, ...command.args] })),
    { name: 'cold', args: [yoke, 'status'], before: () => rmSync(view, { force: true }) },
  ];
  measure(commands, 1, repo); // warm the file cache
  const medians = measure(commands, rounds, repo);
  const node = medians.get('node') ?? Number.NaN;
  const line = (label: string, name: string, target?: number): string => {
    const ms = medians.get(name) ?? Number.NaN;
    const ratio = ms / node;
    const judged = target === undefined ? '' : ` (${verdict(`≤ ${target}x`, ratio <= target, quick)})`;
    return `${label}: ${ms.toFixed(1)} ms, ${ratio.toFixed(2)}x${judged}`;
  };
  report(`start-up: medians of ${rounds} interleaved spawns, on a ${iterations}-iteration journal from a real run`, [
    `node -e 0: ${node.toFixed(1)} ms`,
    ...STARTUP_COMMANDS.map((command) => line(command.label, command.label, command.target)),
    line('yoke status without its view (reads and folds the whole journal, then saves the view)', 'cold'),
  ]);
}
