// The commander program: parses argv and dispatches to one lazily loaded command module.
import { Command, InvalidArgumentError, Option } from 'commander';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Parse a positive whole number flag value. */
function positiveInt(value: string): number {
  if (!/^[1-9][0-9]*$/.test(value)) throw new InvalidArgumentError('expected a whole number of 1 or more.');
  return Number(value);
}

/** yoke's version from its package.json (found from dist/ or from source). */
function version(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 4; i += 1) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'yoke' && pkg.version) return pkg.version;
    } catch {
      // not here: look one folder up
    }
    dir = dirname(dir);
  }
  return 'unknown';
}

/** Build the program; `done` receives each command's exit code. */
export function buildProgram(argv: string[], done: (code: number) => void): Command {
  const program = new Command('yoke')
    .description('Drive coding agents in autonomous loops with mechanical gates, on a durable, replayable journal.')
    .version(version(), '-V, --version')
    .showHelpAfterError('(run `yoke --help` for usage)')
    .exitOverride()
    .configureOutput({ outputError: (text, write) => write(text.replace(/^error: /, 'yoke: ')) });

  program
    .command('init')
    .description('create the .loop/ workspace files for a mode (never overwrites without --force)')
    .argument('<mode>', 'loop | brute | saga | goal')
    .option('--force', 'overwrite existing files', false)
    .option('--json', 'print what was written as JSON', false)
    .action(async (mode: string, flags: { force: boolean; json: boolean }) => {
      const { initCommand } = await import('./commands/init.js');
      done(initCommand(mode, flags));
    });

  program
    .command('run')
    .description('start a run, or resume the unfinished one exactly where it stopped')
    .option('--fresh', 'abandon the unfinished run (journaled) and start a new one', false)
    .addOption(new Option('--max-iterations <n>', 'override max-iterations (on resume: raise or lower the cap)').argParser(positiveInt))
    .option('--quiet', 'no agent output and no progress lines', false)
    .option('--json', 'print journal records as NDJSON on stdout; agent output goes to stderr', false)
    .addHelpText('after', '\nExit codes: 0 success, 1 ended without success (e.g. max-iterations), 2 usage or config error,\n3 workspace refused (corrupt journal, lock held, not a git repo), 130 SIGINT, 143 SIGTERM.')
    .action(async (flags: { fresh: boolean; maxIterations?: number; quiet: boolean; json: boolean }) => {
      const { runCommand } = await import('./commands/run.js');
      done(await runCommand(flags, argv.slice(2)));
    });

  program
    .command('status')
    .description('show where the latest run stands and whether a yoke is working on it')
    .option('--json', 'print as JSON', false)
    .action(async (flags: { json: boolean }) => {
      const { statusCommand } = await import('./commands/status.js');
      done(statusCommand(flags));
    });

  program
    .command('runs')
    .description('list every run in the journal')
    .option('--json', 'print as JSON', false)
    .action(async (flags: { json: boolean }) => {
      const { runsCommand } = await import('./commands/runs.js');
      done(runsCommand(flags));
    });

  program
    .command('config')
    .description('work with .loop/yoke.conf')
    .command('check')
    .description('validate .loop/yoke.conf and report every problem with file:line:column')
    .option('--json', 'print issues and the parsed config as JSON', false)
    .action(async (flags: { json: boolean }) => {
      const { configCheckCommand } = await import('./commands/config-check.js');
      done(configCheckCommand(flags));
    });

  program
    .command('demo')
    .description('run a 3-iteration loop with a scripted agent in a temporary git repository, then show its timeline')
    .option('--keep', 'keep the temporary repository and print its path', false)
    .action(async (flags: { keep: boolean }) => {
      const { demoCommand } = await import('./commands/demo.js');
      done(demoCommand(flags));
    });

  return program;
}
