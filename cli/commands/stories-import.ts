// `yoke stories import <file> [--force]`: a Ralph prd.json, or a YAML/JSON story list, becomes
// .loop/prd.yaml (DESIGN §8). Read and convert first, then check the workspace, then write: a
// refusal or a bad input changes nothing.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { formatIssue } from '../../config/format-issue.js';
import { importStories, type IgnoredField } from '../../config/prd/import-stories.js';
import { YokeError } from '../../errors/yoke-error.js';
import { lifecycleHas } from '../../machines/lifecycles/registry.js';
import { storiesLifecycle } from '../../machines/lifecycles/stories.js';
import { openJournalStore } from '../../store/session/open-store.js';
import type { WorkspacePaths } from '../../store/session/workspace-paths.js';
import { lifecycleTemplates } from '../canon.js';
import { findProject } from '../find-project.js';
import { chooseInitAgent, type InitAgentChoice } from '../init-agent-choice.js';
import { checkConfig } from '../load-config.js';
import { templateWithAgent } from '../template-agent.js';
import { warn } from '../terminal.js';

/** Flags of `yoke stories import`. */
export interface StoriesImportFlags {
  force: boolean;
  json: boolean;
  /** `--agent <name>`: the built-in agent written into a workspace the import creates (as `yoke init --agent`) */
  agent?: string | undefined;
}

/**
 * Exit 0 written; a `usage` error (exit 2, nothing written) for a bad file, another mode, or an
 * existing prd.yaml without --force; a `workspace` error (exit 3, nothing written) while another
 * yoke (a live run) holds the workspace: its prd.yaml is that run's input.
 */
export async function storiesImportCommand(file: string, flags: StoriesImportFlags): Promise<number> {
  const paths = findProject(process.cwd());
  const source = resolve(process.cwd(), file);
  let text: string;
  try {
    text = readFileSync(source, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new YokeError('usage', code === 'ENOENT' ? `${file} does not exist; name the prd.json or story list to import.` : `${file} cannot be read (${code ?? String(error)}); name a readable file.`);
  }
  const shownSource = relative(process.cwd(), source) || file;
  const result = importStories(text, shownSource);
  if (!result.ok) {
    const [first, ...rest] = result.issues;
    throw new YokeError('usage', first ? `${formatIssue(first)}; nothing was written` : `${shownSource} cannot be imported; nothing was written`, rest.map(formatIssue));
  }
  const target = join(paths.loopDir, 'prd.yaml');
  const shownTarget = relative(process.cwd(), target) || target;
  const hasWorkspace = existsSync(paths.conf);
  if (hasWorkspace && flags.agent !== undefined) {
    throw new YokeError('usage', `--agent applies only when the import creates the stories workspace, and ${relative(process.cwd(), paths.conf) || paths.conf} exists; change its \`agent\` line instead. Nothing was written.`);
  }
  // Chosen (and a bad --agent refused) before anything is written.
  const agent = hasWorkspace ? null : chooseInitAgent(flags.agent, process.env.PATH ?? '');
  if (hasWorkspace) refuseOtherMode(paths);
  if (existsSync(target) && !flags.force) {
    throw new YokeError('usage', `${shownTarget} already exists; nothing was written. Use \`yoke stories import ${file} --force\` to replace it (git keeps the old one if it is committed).`);
  }
  let created: string[] = [];
  if (hasWorkspace) {
    const store = openJournalStore(paths, warn);
    try {
      const lease = await store.lease.acquire('yoke stories import', () => undefined);
      try {
        writeFileSync(target, result.yaml);
      } finally {
        await lease.release();
      }
    } finally {
      await store.close();
    }
  } else if (agent !== null) {
    created = createWorkspace(paths, agent);
    writeFileSync(target, result.yaml);
  }
  if (flags.json) {
    const chosen = agent === null ? null : { line: agent.lines.agent, how: agent.how, path: agent.path };
    process.stdout.write(`${JSON.stringify({ file: '.loop/prd.yaml', from: shownSource, format: result.format, stories: result.stories, passed: result.passed, created, agent: chosen, ignored: result.ignored })}\n`);
    return 0;
  }
  for (const line of ignoredLines(result.ignored, shownSource)) process.stderr.write(`${line}\n`);
  if (created.length > 0 && agent !== null) {
    // why the workspace appeared, and which agent it runs (as `yoke init stories` says it)
    process.stdout.write(`Initialized stories mode in ${relative(process.cwd(), paths.loopDir) || '.loop'} (there was no .loop/yoke.conf; \`yoke init stories\` would write the same):\n`);
    for (const name of created) process.stdout.write(`  ${name}\n`);
    process.stdout.write(`${agent.message}\n`);
  }
  const from = result.format === 'ralph' ? `Ralph's ${shownSource}` : shownSource;
  process.stdout.write(`Imported ${result.stories} ${result.stories === 1 ? 'story' : 'stories'} from ${from} into ${shownTarget} (${result.passed} already passed). Next: \`yoke stories\`, then \`yoke run\`.\n`);
  return 0;
}

/** A workspace in another mode is refused (nothing is written); a stories workspace is used as it is. */
function refuseOtherMode(paths: WorkspacePaths): void {
  const { config, file } = checkConfig(paths);
  const mode = config?.mode ?? /^\s*mode\s+(\S+)/m.exec(readFileSync(paths.conf, 'utf8'))?.[1] ?? null;
  if (mode === null || !lifecycleHas(mode, 'stories')) {
    throw new YokeError('usage', `${file} is ${mode === null ? 'not a stories workspace' : `in ${mode} mode`}, so there is no prd.yaml to import into; run \`yoke mode stories\` first (it stashes the current files). Nothing was written.`);
  }
}

/** Write stories mode's templates with `agent` (as `yoke init stories` does, prd.yaml aside), never over an existing file; the files written. */
function createWorkspace(paths: WorkspacePaths, agent: InitAgentChoice): string[] {
  const templates = lifecycleTemplates(storiesLifecycle);
  mkdirSync(paths.loopDir, { recursive: true });
  const written: string[] = [];
  for (const [name, content] of Object.entries(templates.files)) {
    const path = join(paths.loopDir, name);
    if (name === 'prd.yaml' || existsSync(path)) continue;
    writeFileSync(path, name === 'yoke.conf' ? templateWithAgent(content.toString('utf8'), agent.lines) : content);
    written.push(`.loop/${name}`);
  }
  written.push('.loop/prd.yaml');
  return written;
}

/** What the import left out, one note per field: a Ralph `branchName` is said plainly. */
function ignoredLines(ignored: readonly IgnoredField[], source: string): string[] {
  return ignored.map((entry) => entry.field === 'branchName'
    ? `yoke: note: ${source}:${entry.line}: branchName${entry.value === null ? '' : ` \`${entry.value}\``} is ignored: yoke commits each story on the current branch (create the branch yourself first if you want one).`
    : `yoke: note: ${source}:${entry.line}: ${entry.story === null ? '' : `story ${entry.story}'s `}\`${entry.field}\` is not a prd.yaml field and was left out.`);
}
