// `yoke demo`: a real 3-iteration loop in a temporary git repository with a scripted agent.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findRun } from '../../store/fold/journal-runs.js';
import { replayRun } from '../../store/projections/replay-steps.js';
import { readWorkspace } from '../../store/session/read-workspace.js';
import { workspacePaths } from '../../store/session/workspace-paths.js';
import { canonDir } from '../canon.js';
import { renderTimeline } from '../timeline.js';

const CHECK = `import { greet } from './greet.mjs';
const got = greet('yoke');
if (got !== 'hello, yoke') { console.error(\`expected "hello, yoke", got "\${got}"\`); process.exit(1); }
console.log('greet ok');
`;

/** Set up the repository, run `yoke init loop` and `yoke run` as a user would, then print the timeline. */
export async function demoCommand(flags: { keep: boolean }): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'yoke-demo-'));
  const yoke = process.argv[1] ?? '';
  const say = (line: string) => process.stdout.write(`\n${line}\n`);
  try {
    git(dir, ['init', '-q']);
    git(dir, ['config', 'user.name', 'yoke demo']);
    git(dir, ['config', 'user.email', 'demo@yoke.invalid']);
    writeFileSync(join(dir, 'check.mjs'), CHECK);
    writeFileSync(join(dir, 'README.md'), '# demo project\n');
    git(dir, ['add', '-A']);
    git(dir, ['commit', '-qm', 'initial']);
    say(`$ cd ${dir} && yoke init loop`);
    cli(yoke, dir, ['init', 'loop']);
    const agent = join(canonDir(), 'demo', 'agent.mjs');
    writeFileSync(join(dir, '.loop', 'plan.md'), '# Plan\n\nWrite greet.mjs exporting greet(name) that returns "hello, <name>".\n');
    writeFileSync(join(dir, '.loop', 'yoke.conf'), [
      '# yoke demo: a scripted agent, one guard, a commit after every passing iteration',
      'mode loop',
      `agent cmd ${JSON.stringify(process.execPath)} ${JSON.stringify(agent)}`,
      'max-iterations 5',
      'guard test node check.mjs',
      'no-modify check.mjs',
      'commit each',
      '',
    ].join('\n'));
    say('$ yoke run');
    const status = cli(yoke, dir, ['run']);
    say('$ git log --oneline');
    process.stdout.write(git(dir, ['log', '--oneline']));
    say('Timeline of the run (folded from .loop/.journal/journal.jsonl):');
    const { records } = await readWorkspace(workspacePaths(dir));
    for (const line of renderTimeline(replayRun(records, findRun(records)))) process.stdout.write(`${line}\n`);
    process.stdout.write(`\nyoke run exited ${status}. ${flags.keep ? `The repository is kept at ${dir}.` : 'Use `yoke demo --keep` to keep the repository.'}\n`);
    return status;
  } finally {
    if (!flags.keep) rmSync(dir, { recursive: true, force: true });
  }
}

function git(cwd: string, args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8' });
}

function cli(yoke: string, cwd: string, args: string[]): number {
  const result = spawnSync(process.execPath, [yoke, ...args], { cwd, stdio: 'inherit' });
  return result.status ?? 1;
}
