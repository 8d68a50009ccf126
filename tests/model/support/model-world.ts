// The real workspaces the model-based paths run in: one committed git project per mode, built once
// and copied for every branch of the path trie (a copy is a fork of the world: project, git,
// journal, and the side folder the scripted agent and checks read their next move from).
import { execFileSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { existsSync } from 'node:fs';
import { AGENT_SCRIPT, CHECK_SCRIPT } from './world-script.js';

/** A project (`<root>/project`, the git work tree yoke runs in) and its side folder (`<root>/side`). */
export interface ModelWorld {
  root: string;
  project: string;
  side: string;
  loopDir: string;
  journalPath: string;
}

/** A verdict left on disk by an earlier run (spec 2.2 keeps it): a judge that writes nothing must not pass on it. */
const OLDER_VERDICT = { '.loop/verdict.md': 'VERDICT: PASS\nfrom an earlier run\n' };

/** What a user has before `yoke run` in each mode (the spec files the worker scribbles on are restored by yoke). */
export const TEMPLATE_FILES: Record<'loop' | 'brute' | 'saga' | 'goal' | 'stories', Record<string, string>> = {
  loop: { '.loop/plan.md': '# Plan\n\nBuild the widget.\n' },
  brute: { '.loop/plan.md': '# Plan\n\nBuild the widget.\n', '.loop/judge.md': '# Judge\n\nWrite VERDICT: PASS or VERDICT: FAIL.\n', ...OLDER_VERDICT },
  saga: {
    '.loop/specification.md': '# Specification\n\nA parser, then a printer.\n',
    '.loop/judge.md': '# Judge\n\nWrite VERDICT: PASS or VERDICT: FAIL.\n',
    '.loop/saga-notes.md': 'STATUS: IN_PROGRESS\n',
    ...OLDER_VERDICT,
  },
  goal: { '.loop/goal.md': '# Goal\n\nThe widget parses every sample.\n' },
  // prd.yaml is each model's own (ExecutionModel.files)
  stories: { '.loop/judge.md': '# Judge\n\nWrite VERDICT: PASS or VERDICT: FAIL.\n', ...OLDER_VERDICT },
};

/** Files of every mode: the protocol, notes, yoke's ignore file, one source file. */
export const COMMON_FILES: Record<string, string> = {
  '.loop/yoke.conf': '# the run.started record carries the parsed config of each model\n',
  '.loop/protocol.md': '# Protocol\n\nOne step, then notes.md.\n',
  '.loop/notes.md': 'STATUS: IN_PROGRESS\n',
  '.loop/.gitignore': '.journal/\n.stash/\n',
  'src/app.ts': 'export const call = "none";\n',
};

/** A scratch folder on tmpfs when there is one (git and fsync are cheap there). */
export function scratchRoot(prefix: string): string {
  const base = existsSync('/dev/shm') ? '/dev/shm' : tmpdir();
  return mkdtempSync(join(base, prefix));
}

function worldAt(root: string): ModelWorld {
  const project = join(root, 'project');
  return { root, project, side: join(root, 'side'), loopDir: join(project, '.loop'), journalPath: join(project, '.loop', '.journal', 'journal.jsonl') };
}

/**
 * Build the committed template of `mode` under `parent` (git init once per test file and mode),
 * with `files` of one model on top (then `name` tells its template apart).
 */
export function makeTemplate(parent: string, mode: keyof typeof TEMPLATE_FILES, files: Record<string, string> = {}, name: string = mode): ModelWorld {
  const world = worldAt(join(parent, `template-${name}`));
  for (const [rel, content] of Object.entries({ ...COMMON_FILES, ...TEMPLATE_FILES[mode], ...files })) {
    mkdirSync(dirname(join(world.project, rel)), { recursive: true });
    writeFileSync(join(world.project, rel), content);
  }
  mkdirSync(world.side, { recursive: true });
  writeFileSync(join(world.side, 'agent.sh'), AGENT_SCRIPT);
  writeFileSync(join(world.side, 'check.sh'), CHECK_SCRIPT);
  const git = (...args: string[]) => execFileSync('git', args, { cwd: world.project, stdio: 'ignore' });
  git('init', '-q');
  git('config', 'user.name', 'Yoke Model');
  git('config', 'user.email', 'yoke-model@example.invalid');
  git('config', 'commit.gpgsign', 'false');
  git('add', '-A');
  git('commit', '-q', '-m', 'initial');
  return world;
}

let copies = 0;

/** A fork of `world` (a byte copy of project, git, journal and side folder) under `parent`. */
export function cloneWorld(world: ModelWorld, parent: string): ModelWorld {
  copies += 1;
  const copy = worldAt(join(parent, `w${copies}`));
  cpSync(world.root, copy.root, { recursive: true, preserveTimestamps: true });
  return copy;
}

/** A world that shares `world`'s files but has its own copy of the journal (for steps that only journal). */
export function copyJournal(world: ModelWorld, parent: string): ModelWorld {
  copies += 1;
  const root = join(parent, `j${copies}`);
  mkdirSync(root);
  const journalPath = join(root, 'journal.jsonl');
  copyFileSync(world.journalPath, journalPath);
  return { ...world, root, journalPath };
}

/** Remove a world (or the whole scratch folder). */
export function removeWorld(path: string): void {
  rmSync(path, { recursive: true, force: true, maxRetries: 3 });
}
