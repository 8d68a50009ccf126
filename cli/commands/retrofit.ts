// `yoke retrofit [dir] [--agent …] [--dry-run] [--check] [--undo] [--json]`: install the canon into a
// project for Claude Code, Codex and Gemini CLI (DESIGN §11, docs/retrofit.md):
// detect → plan (pure) → generate and wire (apply, with backups) → report.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { LOCK_PATH, parseLock, type CanonLock } from '../../machines/retrofit/canon-lock.js';
import { pathsToRead, planRetrofit } from '../../machines/retrofit/plan-retrofit.js';
import { RETROFIT_AGENTS, isRetrofitAgent, type RetrofitAgent } from '../../machines/retrofit/retrofit-agents.js';
import { planChanges, planDrifts, planRefuses } from '../../machines/retrofit/retrofit-plan.js';
import { applyRetrofit } from '../../effects/retrofit/apply-retrofit.js';
import { detectAgents } from '../../effects/retrofit/detect-agents.js';
import { readProjectFiles } from '../../effects/retrofit/read-project-files.js';
import { undoRetrofit } from '../../effects/retrofit/undo-retrofit.js';
import { YokeError } from '../../errors/yoke-error.js';
import { loadRetrofitCanon } from '../load-retrofit-canon.js';
import { planCounts, planJson, planLines } from '../retrofit-report.js';

/** Flags of `yoke retrofit`. */
export interface RetrofitFlags {
  agent?: string;
  dryRun: boolean;
  check: boolean;
  undo: boolean;
  json: boolean;
}

const out = (line: string): void => {
  process.stdout.write(`${line}\n`);
};

/** `--agent claude,codex` or `all`; an unknown name is a usage error. */
export function parseAgents(value: string): RetrofitAgent[] {
  if (value.trim() === 'all') return [...RETROFIT_AGENTS];
  const names = value.split(',').map((name) => name.trim()).filter((name) => name !== '');
  const unknown = names.find((name) => !isRetrofitAgent(name));
  if (unknown !== undefined || names.length === 0) throw new YokeError('usage', `--agent \`${unknown ?? value}\` is not an agent yoke retrofits; use claude, codex, gemini (comma-separated) or all.`);
  return names.filter(isRetrofitAgent);
}

/** The git work tree's root for `dir`; refuses (exit 3) outside git and for the home folder itself. */
function projectRoot(dir: string): string {
  const abs = resolve(dir);
  if (!existsSync(abs)) throw new YokeError('usage', `${abs} does not exist; name a project folder.`);
  let root: string;
  try {
    root = execFileSync('git', ['rev-parse', '--show-toplevel'], { cwd: abs, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    throw new YokeError('workspace', `${abs} is not inside a git repository; yoke retrofit works in a git project (run \`git init\` first).`);
  }
  if (realpathSync(root) === realpathSync(homedir())) {
    throw new YokeError('workspace', `${root} is your home folder: its .claude/, .codex/ and .gemini/ are your user settings, which yoke never touches; run yoke retrofit in a project.`);
  }
  return root;
}

function readLock(root: string): CanonLock | null {
  const path = join(root, LOCK_PATH);
  if (!existsSync(path)) return null;
  const parsed = parseLock(readFileSync(path, 'utf8'));
  if (parsed.problem !== null) {
    const where = parsed.line === undefined ? path : `${path}:${parsed.line}`;
    throw new YokeError('usage', `${where}: ${parsed.problem}; restore it from git (\`git checkout -- ${LOCK_PATH}\`) or delete it to start over; nothing was changed.`);
  }
  return parsed.lock;
}

/** Exit 0 done or up to date; 1 a file was refused (or, with --check, anything would change or drifted); 2 usage; 3 not a project. */
export async function retrofitCommand(dir: string | undefined, flags: RetrofitFlags): Promise<number> {
  if (flags.undo && (flags.check || flags.agent !== undefined)) throw new YokeError('usage', '--undo takes no --check or --agent: it undoes the last retrofit as it was.');
  if (flags.check && flags.dryRun) throw new YokeError('usage', '--check already writes nothing; use --check or --dry-run, not both.');
  const root = projectRoot(dir ?? process.cwd());
  if (flags.undo) return undo(root, flags);

  const canon = await loadRetrofitCanon();
  const lock = readLock(root);
  const detected = detectAgents(root);
  const agents = flags.agent !== undefined ? parseAgents(flags.agent) : lock?.agents ?? (detected.agents.length > 0 ? detected.agents : [...RETROFIT_AGENTS]);
  const project = await readProjectFiles(root, pathsToRead(canon, lock));
  // The lock and the backups live in the project's own .yoke/: never through a link that leads out.
  const yokeDir = project.links?.get(LOCK_PATH);
  if (yokeDir !== undefined && 'refused' in yokeDir) throw new YokeError('workspace', `${yokeDir.refused}: yoke keeps its lock and backups in the project's .yoke/ folder; replace the link with a folder. Nothing was changed.`);
  const plan = planRetrofit(canon, agents, project, lock);
  const changes = planChanges(plan);
  const refused = planRefuses(plan);
  const drift = planDrifts(plan);
  const dryRun = flags.dryRun || flags.check;
  const applied = dryRun ? null : await applyRetrofit(root, plan, new Date());
  const exitCode = refused || (flags.check && (changes || drift)) ? 1 : 0;

  if (flags.json) {
    out(JSON.stringify({ root, detected, ...planJson(plan), changes, drift, refused, applied: applied !== null, backup: applied?.backup ?? null, exitCode }));
    return exitCode;
  }
  const why = flags.agent !== undefined ? '--agent' : lock !== null ? 'as last time' : detected.agents.length > 0 ? 'detected' : 'none detected, so all';
  out(`yoke retrofit ${root}: ${plan.agents.join(', ')} (${why})`);
  if (detected.found.length > 0) out(`  found: ${detected.found.join(', ')}`);
  for (const line of planLines(plan, false)) out(line);
  const verb = flags.check ? 'check' : flags.dryRun ? 'dry run, nothing written' : 'done';
  if (!changes && !drift && !refused) out(`up to date: nothing to change (${planCounts(plan.entries)}).`);
  else out(`${verb}: ${planCounts(plan.entries)}.`);
  if (applied?.backup) out(`backup: ${applied.backup}/ (undo with: yoke retrofit --undo)`);
  if (refused) out('refused files were left untouched: fix what the line says, then run yoke retrofit again.');
  if (drift) out('drifted: your edits are kept; compare with <file>.yoke-new and take yoke\'s version by moving it over the file.');
  if (applied?.backup && plan.agents.includes('codex')) out('codex: the gate hook in .codex/config.toml runs once you trust this project and review the hook when codex asks.');
  return exitCode;
}

async function undo(root: string, flags: RetrofitFlags): Promise<number> {
  const result = await undoRetrofit(root, flags.dryRun);
  if (flags.json) {
    out(JSON.stringify({ root, ...result }));
    return result.outcome === 'undone' ? 0 : result.outcome === 'nothing' ? 2 : 1;
  }
  switch (result.outcome) {
    case 'nothing':
      throw new YokeError('usage', `${root} has no retrofit to undo (no backup under .yoke/backup/).`);
    case 'damaged':
      throw new YokeError('effect', `${result.backup}: ${result.reason}; nothing was undone.`);
    case 'conflict':
      out(`yoke retrofit --undo ${root}: nothing undone; these changed since the retrofit of ${result.backup}:`);
      for (const conflict of result.conflicts) out(`  ${conflict.path}: ${conflict.reason}`);
      out('put them back as the retrofit left them (or move your changes aside), then run yoke retrofit --undo again.');
      return 1;
    case 'undone':
      out(`yoke retrofit --undo ${root}: ${flags.dryRun ? 'would restore' : 'restored'} the project as it was before ${result.backup}`);
      for (const step of result.steps) out(`  ${step.action.padEnd(8)} ${step.path}${step.action === 'keep' ? `  ${step.reason}` : ''}`);
      return 0;
  }
}
