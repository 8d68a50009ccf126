// The commander program: parses argv and dispatches to one lazily loaded command module.
import { Command, InvalidArgumentError, Option } from 'commander';
import type { AnswerFlags } from './commands/answer.js';
import type { BudgetFlags } from './commands/budget.js';
import type { QueueAddFlags } from './commands/queue-add.js';
import type { WorkerFlags } from './commands/worker.js';
import { fleetModes, lifecyclesHelp, modeArgumentHelp, type LifecycleSummary } from './lifecycle-help.js';
import { GATE_AGENTS, type GateAgent } from './gate-output.js';
import { yokeVersion } from './version.js';
import { parseParallel } from '../config/parse-parallel.js';

/** Parse a positive whole number flag value. */
function positiveInt(value: string): number {
  if (!/^[1-9][0-9]*$/.test(value)) throw new InvalidArgumentError('expected a whole number of 1 or more.');
  return Number(value);
}

/** `--parallel <n>`: 1 to 8 stories at once (DESIGN §10). */
function parallelCount(value: string): number {
  const count = parseParallel(value);
  if (!count.ok) throw new InvalidArgumentError(`${count.message}; ${count.hint}.`);
  return count.value;
}

/** `--live-port` (issue 5): the relay's port for `--live`. */
function livePortOption(): Option {
  return new Option('--live-port <port>', "the relay's port for --live (implies --live; default: a free one)").argParser((value: string) => {
    const port = positiveInt(value);
    if (port > 65535) throw new InvalidArgumentError('expected a port from 1 to 65535.');
    return port;
  });
}

/** `--workspace <name>`: one help text for every command that takes it (cli/workspace-target.ts). */
const WORKSPACE_HELP = 'a workspace of the shared store YOKE_STORE (else the project\'s `store` directive) names, from any folder (docs/fleet.md)';

/**
 * Build the program; `done` receives each command's exit code. `lifecycles` (the registry's
 * descriptors) describe `init` and `mode` and give `queue add --mode` its choices; the caller loads
 * them only when the command line names one of those (`showsLifecycles`), because the registry
 * brings in every machine.
 */
export function buildProgram(argv: string[], done: (code: number) => void, lifecycles: readonly LifecycleSummary[] = []): Command {
  const program = new Command('yoke')
    .description('Drive coding agents in autonomous loops with mechanical gates, on a durable, replayable journal.')
    .version(yokeVersion(), '-V, --version')
    .showHelpAfterError('(run `yoke --help` for usage)')
    .exitOverride()
    .configureOutput({ outputError: (text, write) => write(text.replace(/^error: /, 'yoke: ')) });

  program
    .command('init')
    .description('create the .loop/ workspace files for a mode (never overwrites without --force)')
    .argument('<mode>', modeArgumentHelp(lifecycles))
    .option('--force', 'overwrite existing files', false)
    .option('--agent <name>', 'the built-in agent to write: claude, codex, gemini, opencode or qwen (default: the first one on PATH)')
    .option('--json', 'print what was written as JSON', false)
    .addHelpText('after', lifecyclesHelp(lifecycles))
    .action(async (mode: string, flags: { force: boolean; json: boolean; agent?: string }) => {
      const { initCommand } = await import('./commands/init.js');
      done(initCommand(mode, flags));
    });

  program
    .command('run')
    .description('start a run, or resume the unfinished one exactly where it stopped')
    .option('--fresh', 'abandon the unfinished run (journaled) and start a new one', false)
    .option('--discard-history', 'with --fresh: start over although the journal is empty and transcripts, blobs, status.json or .git/yoke/blobs show earlier runs', false)
    .addOption(new Option('--max-iterations <n>', 'override max-iterations (on resume: raise or lower the cap)').argParser(positiveInt))
    .addOption(new Option('--parallel <n>', 'stories: work up to n (1-8) stories at once, each in its own git worktree (docs/parallel.md)').argParser(parallelCount))
    .option('--quiet', 'no agent output and no progress lines', false)
    .option('--json', 'print journal records as NDJSON on stdout; agent output goes to stderr', false)
    .option('--live', 'stream the machine to the Stately inspector through a local relay (optional; the viewer needs the internet)', false)
    .addOption(livePortOption())
    .addHelpText('after', '\nExit codes: 0 success, 1 ended without success (e.g. max-iterations), 2 usage or config error,\n3 workspace refused (corrupt journal, lock held, not a git repo), 129 SIGHUP, 130 SIGINT, 143 SIGTERM.')
    .action(async (flags: { fresh: boolean; discardHistory: boolean; maxIterations?: number; parallel?: number; quiet: boolean; json: boolean; live: boolean; livePort?: number }) => {
      const { runCommand } = await import('./commands/run.js');
      done(await runCommand(flags, argv.slice(2)));
    });

  program
    .command('status')
    .description('show where the latest run stands and whether it is alive: running, silent, possibly stuck or dead')
    .option('--json', 'print as JSON', false)
    .option('--watch', 'refresh every second until Ctrl-C (in place on a terminal)', false)
    .option('--workspace <name>', WORKSPACE_HELP)
    .action(async (flags: { json: boolean; watch: boolean; workspace?: string }) => {
      const { statusCommand } = await import('./commands/status.js');
      done(await statusCommand(flags));
    });

  program
    .command('gate')
    .description('the tool-call hook each agent CLI runs before a tool call: reads the hook JSON on stdin and prints the ruling in that CLI\'s format (docs/tool-control.md)')
    .requiredOption('--agent <name>', `the CLI whose hook calls it: ${GATE_AGENTS.join(', ')}`, (value: string) => {
      if (!(GATE_AGENTS as readonly string[]).includes(value)) throw new InvalidArgumentError(`expected one of ${GATE_AGENTS.join(', ')}.`);
      return value as GateAgent;
    })
    .action(async (flags: { agent: GateAgent }) => {
      const { gateCommand } = await import('./commands/gate.js');
      done(await gateCommand(flags.agent));
    });

  program
    .command('holds')
    .description('list the tool calls held for the operator: id, time, lanes or story, agent, tool, class, input (docs/tool-control.md)')
    .option('--json', 'print as JSON', false)
    .option('--all', 'also list the held calls already answered', false)
    .option('--workspace <name>', WORKSPACE_HELP)
    .action(async (flags: { json: boolean; all: boolean; workspace?: string }) => {
      const { holdsCommand } = await import('./commands/holds.js');
      done(await holdsCommand(flags));
    });

  program
    .command('answer')
    .description('answer a held tool call (pass or refuse, for the call, the run or the workspace), or --revoke a standing answer; a live run takes it at once over its gate socket (in its checkout; with --workspace a live run refuses it: exit 3)')
    .argument('[id]', 'the hold id `yoke holds` shows')
    .argument('[ruling]', 'pass or refuse')
    .addOption(new Option('--scope <scope>', 'how far the answer stands: this call, the same tool at the same class for the run, or for the workspace (destructive and secret: call only)').choices(['call', 'run', 'workspace']).default('call'))
    .option('--why <text>', 'why, kept in the journal with the answer')
    .option('--revoke <answer>', 'end a standing answer (its answer id, e.g. 1a2b3c4d-a1)')
    .option('--json', 'print the journaled answer as JSON', false)
    .option('--workspace <name>', WORKSPACE_HELP)
    .action(async (id: string | undefined, ruling: string | undefined, flags: AnswerFlags) => {
      const { answerCommand } = await import('./commands/answer.js');
      done(await answerCommand(id, ruling, flags));
    });

  program
    .command('runs')
    .description('list every run in the journal')
    .option('--json', 'print as JSON', false)
    .option('--workspace <name>', WORKSPACE_HELP)
    .action(async (flags: { json: boolean; workspace?: string }) => {
      const { runsCommand } = await import('./commands/runs.js');
      done(await runsCommand(flags));
    });

  // replay, inspect (issue 5)
  program
    .command('replay')
    .description("show a past run step by step, folded from the journal (never runs anything); --verify checks that today's machines decide the same")
    .argument('[run]', 'run id or unique prefix (default: the latest run)')
    .option('--json', 'one JSON object per step (with --verify: one per run)', false)
    .addOption(new Option('--at <seq>', 'the machine state and context right after journal record <seq>').argParser(positiveInt))
    .option('--verify', "re-derive every effect request with today's machines and compare it with the journal", false)
    .option('--all', 'with --verify: every run in the journal', false)
    .option('--html <file>', "write a self-contained offline page: the machine diagram with the run's path, time and cost per state, the timeline")
    .option('--journal <file>', "read this journal file instead of the workspace's .loop/.journal/journal.jsonl")
    .option('--live', 'stream the machine to the Stately inspector through a local relay (optional; the viewer needs the internet)', false)
    .addOption(livePortOption())
    .option('--workspace <name>', WORKSPACE_HELP)
    .addHelpText('after', '\nExit codes: 0 success (with --verify: every run agrees), 1 --verify found a divergence,\n2 usage error, 3 journal corrupt or recorded by a machine version this yoke cannot fold.')
    .action(async (run: string | undefined, flags: { json: boolean; at?: number; verify: boolean; all: boolean; html?: string; journal?: string; live: boolean; livePort?: number; workspace?: string }) => {
      const { replayCommand } = await import('./commands/replay.js');
      done(await replayCommand(run, flags));
    });

  program
    .command('inspect')
    .description('print a lifecycle machine as Mermaid, DOT, JSON or an offline HTML page, or export it for Stately Studio')
    .argument('[machine]', 'machine name (omit to list them)')
    .addOption(new Option('--format <format>', 'output format').choices(['mermaid', 'dot', 'json', 'html']).default('mermaid'))
    .option('--stately', 'print the machine as createMachine({...}) for Stately Studio\'s "Import from code"', false)
    .option('--json', 'same as --format json (without a machine: the list as JSON)', false)
    .option('-o, --output <file>', 'write to this file instead of stdout')
    .action(async (machine: string | undefined, flags: { format: 'mermaid' | 'dot' | 'json' | 'html'; stately: boolean; json: boolean; output?: string }) => {
      const { inspectCommand } = await import('./commands/inspect.js');
      done(await inspectCommand(machine, flags));
    });

  program
    .command('config')
    .description('work with .loop/yoke.conf')
    .command('check')
    .description('validate .loop/yoke.conf and report every problem with file:line:column')
    .option('--json', 'print issues and the parsed config as JSON', false)
    .action(async (flags: { json: boolean }) => {
      const { configCheckCommand } = await import('./commands/config-check.js');
      done(await configCheckCommand(flags));
    });

  // stories (issue 12)
  const stories = program
    .command('stories')
    .description('the stories of .loop/prd.yaml: id, state (passed, ready, waiting, blocked, stopped), attempts, commit, title')
    .addHelpText('after', [
      '',
      '`yoke stories` alone is `yoke stories list`. States: passed (landed, or `passes: true` in prd.yaml), ready (every',
      'dependency passed), waiting (a dependency has not passed), blocked (out of attempts or no progress), stopped (no',
      'acceptance criteria: it stops the line when selected). Attempts count DONE claims. See docs/stories.md.',
      'Exit codes: 0 shown or imported, 2 not stories mode, invalid prd.yaml or import file, prd.yaml exists (import without',
      '--force); nothing was changed, 3 workspace refused (not a git repo, journal damaged).',
    ].join('\n'));
  stories
    .command('list', { isDefault: true })
    .description('list the stories with their state, attempts and commit, then "n of m stories passed" (the default)')
    .option('--json', 'print { stories: [{ id, title, state, attempts, commit }], passed, total } (commit: full sha or null)', false)
    .action(async (flags: { json: boolean }) => {
      const { storiesCommand } = await import('./commands/stories.js');
      done(await storiesCommand(flags));
    });
  stories
    .command('import')
    .description('convert a Ralph prd.json, or a YAML/JSON list of { id, title, priority, acceptance, passes }, into .loop/prd.yaml')
    .argument('<file>', 'the file to convert (.json, .yaml or .yml)')
    .option('--force', 'overwrite an existing .loop/prd.yaml', false)
    .option('--agent <name>', 'when the import creates the stories workspace: the built-in agent to write (default: the first one on PATH, as yoke init)')
    .option('--json', 'print what was written as JSON', false)
    .action(async (file: string, flags: { force: boolean; json: boolean; agent?: string }) => {
      const { storiesImportCommand } = await import('./commands/stories-import.js');
      done(await storiesImportCommand(file, flags));
    });

  // delivery evidence (issue 17)
  program
    .command('check')
    .description('run the acceptance criteria (accept commands, then browser journeys) with no agent, and write the evidence to .loop/proof/<label>/')
    .option('--label <label>', 'the proof folder under .loop/proof/ (default: latest)')
    .option('--json', 'print the report (with its path and SHA-256) as JSON', false)
    .addHelpText('after', [
      '',
      'Artifacts (`artifact <path> <criterion>…`) are hashed before and after the criteria; journeys',
      '(`journey <name> <flow.yaml>` with `base-url <url>`) run in the system\'s Chromium (YOKE_CHROMIUM',
      'names another; failure videos need ffmpeg, or YOKE_FFMPEG). The report never holds fill values,',
      'environment values, selectors or expected texts. A check that cannot start keeps the earlier evidence.',
      '',
      'Exit codes: 0 every criterion, binding and journey passed with evidence and the source tree did not',
      'change; 1 something failed or the source changed during the check; 2 usage, config or a missing',
      'prerequisite (no browser, bad flow file, unset value-env variable, base URL not answering); 130 SIGINT, 143 SIGTERM, 129 SIGHUP.',
      'See docs/check.md.',
    ].join('\n'))
    .action(async (flags: { label?: string; json: boolean }) => {
      const { checkCommand } = await import('./commands/check.js');
      done(await checkCommand(flags));
    });

  // canon and retrofit (issue 14)
  program
    .command('retrofit')
    .description("install yoke's canon (AGENTS.md, skills, policy, context, the tool-call gate) into a project for Claude Code, Codex and Gemini CLI, without losing a byte of the project's own files")
    .argument('[dir]', 'a folder of the project: yoke retrofits the root of its git work tree (default: the current folder\'s)')
    .option('--agent <agents>', 'claude, codex, gemini (comma-separated) or all (default: as last time, else the detected ones, else all)')
    .option('--dry-run', 'print the plan (every create, change and delete, with a reason) and write nothing', false)
    .option('--check', 'exit 1 when anything would be created, updated, deleted or has drifted, 0 otherwise (for CI); writes nothing', false)
    .option('--undo', 'restore the project byte for byte as it was before the last retrofit', false)
    .option('--json', 'print the plan and what was done as JSON', false)
    .addHelpText('after', [
      '',
      'Generated files are recorded in .yoke/canon.lock; text yoke manages inside your files sits between',
      'yoke:begin/yoke:end markers. A generated file you edited is kept and yoke writes <file>.yoke-new.',
      'Everything replaced or deleted is copied to .yoke/backup/<stamp>/ first. See docs/retrofit.md.',
      '',
      'Exit codes: 0 done or up to date; 1 a file could not be read or merged and was left untouched',
      '(with --check: anything would change or drifted; with --undo: files changed since the retrofit);',
      '2 usage error (a bad lock: its line) or nothing to undo; 3 not a git repository, the home folder,',
      'or a path whose link leads out of the project while writing (yoke writes only inside the project).',
    ].join('\n'))
    .action(async (dir: string | undefined, flags: { agent?: string; dryRun: boolean; check: boolean; undo: boolean; json: boolean }) => {
      const { retrofitCommand } = await import('./commands/retrofit.js');
      done(await retrofitCommand(dir, flags));
    });

  program
    .command('canon')
    .description("work with a canon folder (yoke's agent instructions and skills)")
    .command('validate')
    .description('check a canon folder: skill frontmatter, manifest against folders, duplicate names; problems as file:line')
    .argument('[dir]', "the canon folder (default: the canon shipped with yoke)")
    .option('--json', 'print the result as JSON', false)
    .addHelpText('after', '\nExit codes: 0 valid, 1 problems found (each printed as file:line), 2 no such folder. See docs/canon.md.')
    .action(async (dir: string | undefined, flags: { json: boolean }) => {
      const { canonValidateCommand } = await import('./commands/canon-validate.js');
      done(await canonValidateCommand(dir, flags));
    });

  // stash, clean, mode (issue 4)
  const stash = program
    .command('stash')
    .description('park the files of .loop/ in the stash and bring them back (the stash index lives in the journal)')
    .addHelpText('after', '\n`yoke stash` alone is `yoke stash push`. Entry ids are hex hashes; checkout takes any unambiguous prefix.\nExit codes: 0 done, 2 usage error (nothing to pop, unknown or ambiguous id; nothing was changed),\n3 workspace refused (a run holds the lock, the journal or the stash is damaged).');
  stash
    .command('push', { isDefault: true })
    .description('stash every non-dotfile entry of .loop/ as a new entry, tagged with the current mode; .loop/ keeps only dotfiles (the default)')
    .option('-m, --message <message>', 'describe the entry')
    .option('--json', 'print the new entry as JSON', false)
    .action(async (flags: { message?: string; json: boolean }) => {
      const { stashPushCommand } = await import('./commands/stash.js');
      done(await stashPushCommand(flags));
    });
  stash
    .command('list')
    .description('list the stash entries, newest first: id, time, mode tag, how it was made, size, message')
    .option('--json', 'print the entries as JSON', false)
    .action(async (flags: { json: boolean }) => {
      const { stashListCommand } = await import('./commands/stash-list.js');
      done(await stashListCommand(flags));
    });
  stash
    .command('pop')
    .description('restore the newest entry not popped yet into .loop/ (which must hold only dotfiles); the entry stays in the index')
    .option('--json', 'print what was restored as JSON', false)
    .action(async (flags: { json: boolean }) => {
      const { stashPopCommand } = await import('./commands/stash.js');
      done(await stashPopCommand(flags));
    });
  stash
    .command('checkout')
    .description('stash the current files, then restore the entry whose id starts with <prefix>')
    .argument('<prefix>', 'an entry id or any unambiguous prefix of one (see `yoke stash list`)')
    .option('--json', 'print what was stashed and restored as JSON', false)
    .action(async (prefix: string, flags: { json: boolean }) => {
      const { stashCheckoutCommand } = await import('./commands/stash.js');
      done(await stashCheckoutCommand(prefix, flags));
    });

  program
    .command('clean')
    .description("stash everything in .loop/, then keep the mode's spec files and start the rest fresh from its templates")
    .option('--json', 'print what was stashed, kept and reset as JSON', false)
    .action(async (flags: { json: boolean }) => {
      const { cleanCommand } = await import('./commands/clean.js');
      done(await cleanCommand(flags));
    });

  program
    .command('mode')
    .description('switch modes: stash the current files (tagged with the old mode), then write fresh templates of the new one')
    .argument('<mode>', modeArgumentHelp(lifecycles))
    .option('--json', 'print what was stashed and written as JSON', false)
    .addHelpText('after', lifecyclesHelp(lifecycles))
    .action(async (mode: string, flags: { json: boolean }) => {
      const { modeCommand } = await import('./commands/mode.js');
      done(await modeCommand(mode, flags));
    });

  program
    .command('demo')
    .description('run a 3-iteration loop (or, with `stories`, a 3-story list) with a scripted agent in a temporary git repository, offline, then show its timeline')
    .argument('[demo]', 'loop (the default) or stories')
    .option('--keep', 'keep the temporary repository and print its path', false)
    .action(async (which: string | undefined, flags: { keep: boolean }) => {
      const { demoCommand } = await import('./commands/demo.js');
      done(await demoCommand(which, flags));
    });

  // budgets and usage (issue 3)
  program
    .command('budget')
    .description('raise (or set) ceilings of the unfinished run; with no flags, show spending against them')
    .option('--attempts <n>', 'worker calls')
    .option('--tokens <n>', 'input + output tokens (500k, 2M allowed)')
    .option('--cost-usd <usd>', 'US dollars')
    .option('--minutes <n>', 'minutes spent in agent calls')
    .option('--wall-minutes <n>', 'minutes since the run started')
    .option('--json', 'print as JSON', false)
    .option('--workspace <name>', WORKSPACE_HELP)
    .action(async (flags: BudgetFlags) => {
      const { budgetCommand } = await import('./commands/budget.js');
      done(await budgetCommand(flags));
    });

  program
    .command('usage')
    .description('tokens, cost and agent time by run, role and model, from the journal (unknown stays unknown)')
    .option('--run <prefix>', 'only this run')
    .option('--json', 'print totals and every call as JSON', false)
    .option('--workspace <name>', WORKSPACE_HELP)
    .action(async (flags: { json: boolean; run?: string; workspace?: string }) => {
      const { usageCommand } = await import('./commands/usage.js');
      done(await usageCommand(flags));
    });

  const store = program
    .command('store')
    .description('the shared PostgreSQL store YOKE_STORE names (docs/fleet.md)');
  store
    .command('init')
    .description('create the schema, or migrate it to this yoke\'s version (safe to run again)')
    .option('--json', 'print what was done as JSON', false)
    .addHelpText('after', '\nExit codes: 0 done, 2 YOKE_STORE not set, 3 the store cannot be reached, refuses the credentials, or has a newer schema.')
    .action(async (flags: { json: boolean }) => {
      const { storeInitCommand } = await import('./commands/store-init.js');
      done(await storeInitCommand(flags));
    });

  const context = program
    .command('context')
    .description('what the next agent prompt\'s "Project context" block carries, from .yoke/context/ (DESIGN §9)')
    .option('--json', 'print { files: [{ name, bytes, injected }], budget, block } as JSON', false)
    .addHelpText('after', '\n`bytes` is null for a missing file; `injected` counts the characters of it the block carries\n(the budget is `context-budget` in yoke.conf, default 8000, shared by the three files).\nExit codes: 0 shown, 2 usage or config error, 3 not a git project.')
    .action(async (flags: { json: boolean }) => {
      const { contextCommand } = await import('./commands/context.js');
      done(await contextCommand(flags));
    });
  context
    .command('init')
    .description('write the canon\'s templates of PROJECT.md, DECISIONS.md and KNOWLEDGE.md into .yoke/context/ (missing ones only, never overwrites)')
    .option('--json', 'print { dir, written, kept } as JSON', false)
    .action(async (flags: { json: boolean }, command: Command) => {
      const { contextInitCommand } = await import('./commands/context.js');
      // `yoke context` has a --json of its own, which commander hands to it even after `init`
      done(contextInitCommand({ json: flags.json || command.parent?.opts<{ json?: boolean }>().json === true }));
    });

  const queue = program
    .command('queue')
    .description('the fleet\'s job queue on the shared store (docs/fleet.md)');
  queue
    .command('add')
    .description('queue a workspace: a worker clones <git-url>, runs it against the shared store and pushes to refs/yoke/runs/<run>')
    .argument('<git-url>', 'the repository to run (a local path is made absolute; a user name or password in the URL is not stored: workers clone with their own git credentials)')
    .option('--ref <ref>', 'the branch (or tag) to clone; default: the remote\'s default branch')
    .addOption(new Option('--mode <mode>', 'the mode the job is meant for (recorded with the job; the repository\'s yoke.conf decides what runs)').choices(fleetModes(lifecycles)))
    .option('--name <name>', 'the workspace\'s name in the store (default: the repository\'s name)')
    .option('--json', 'print the job as JSON', false)
    .addHelpText('after', '\nAt most one job not yet started per workspace (pg-boss singletonKey): a second `queue add` while one waits queues nothing.\nExit codes: 0 queued (or already waiting), 2 usage (no shared store), 3 the store cannot be used.')
    .action(async (repository: string, flags: QueueAddFlags) => {
      const { queueAddCommand } = await import('./commands/queue-add.js');
      done(await queueAddCommand(repository, flags));
    });

  program
    .command('worker')
    .description('claim queued jobs and run them (yoke run in a fresh clone, against the shared store) until SIGTERM')
    .option('--concurrency <n>', 'jobs run at once', positiveInt, 1)
    .option('--workdir <dir>', 'where checkouts and job logs go (default: ~/.cache/yoke/worker)')
    .addHelpText('after', '\nSIGTERM/SIGINT: each run stops resumably and its job goes back to the queue. Checkouts: <workdir>/<workspace>; an earlier one\'s transcripts are moved to <workdir>/kept/<workspace>/.\nExit codes: 0 stopped by a signal, 2 usage, 3 the store cannot be used or this worker was declared dead.')
    .action(async (flags: WorkerFlags) => {
      const { workerCommand } = await import('./commands/worker.js');
      done(await workerCommand(flags));
    });

  program
    .command('fleet')
    .description('the shared store\'s workers (host, pid, heartbeat age), jobs (state, workspace, attempts) and runs (state, iteration, cost); a workspace it cannot read is listed with the reason')
    .option('--json', 'print as JSON', false)
    .addHelpText('after', '\nExit codes: 0 shown, 2 usage (no shared store), 3 the store cannot be used.')
    .action(async (flags: { json: boolean }) => {
      const { fleetCommand } = await import('./commands/fleet.js');
      done(await fleetCommand(flags));
    });

  // protected acceptance (issue 22, DESIGN §16)
  const protect = program
    .command('protect')
    .description('the protection baseline of the files that decide "done" (`protect` in yoke.conf): status, and the explicit refresh')
    .addHelpText('after', '\nA protected file an agent changes is restored; one you change between runs makes `yoke run` refuse (exit 1)\nuntil `yoke protect refresh`. No other command ever refreshes the baseline. See docs/protect.md.');
  protect
    .command('status')
    .description('the baseline (digest, files), what changed since (drift), and every refresh')
    .option('--json', 'print as JSON', false)
    .addHelpText('after', '\nExit codes: 0 shown (whatever it found; --json says `unchanged`), 2 config error, 3 workspace refused.')
    .action(async (flags: { json: boolean }) => {
      const { protectStatusCommand } = await import('./commands/protect.js');
      done(await protectStatusCommand(flags));
    });
  protect
    .command('refresh')
    .description('accept the protected files as they are now: journal their new digests, the old ones and why, after listing every change')
    .option('--why <reason>', 'why the protected files changed (journaled with the refresh)')
    .option('--json', 'print what was accepted as JSON', false)
    .addHelpText('after', '\nExit codes: 0 refreshed (or nothing to refresh), 1 refused: the unfinished run\'s agent changed them\n(`yoke run` restores those first), 2 usage error or no baseline yet, 3 workspace refused (a run holds\nthe lock, or the baseline was tampered with).')
    .action(async (flags: { why?: string; json: boolean }) => {
      const { protectRefreshCommand } = await import('./commands/protect.js');
      done(await protectRefreshCommand(flags));
    });

  program
    .command('routing')
    .description('which profile the next attempt would use, and why: an unfinished run\'s next attempt, the escalation ladder, or the evidence per profile (DESIGN §15)')
    .option('--json', 'print as JSON', false)
    .addHelpText('after', '\nAn unfinished run\'s next attempt is folded from its journal (its sequence\'s rung, its economic start).\n`*` marks the baseline (the profile `agent` names). A profile with too few complete sequences, an unknown\ncost, a call without token counts, a cut-short call or an infrastructure failure in its window is not\neligible; unknown is never counted as zero. Exit codes: 0 shown, 2 usage or config error, 3 workspace refused.')
    .action(async (flags: { json: boolean }) => {
      const { routingCommand } = await import('./commands/routing.js');
      done(await routingCommand(flags));
    });

  return program;
}
