// `yoke context [--json]`: what the next agent prompt's "Project context" block would carry; and
// `yoke context init`: the canon's templates for the context files that are missing (DESIGN §9).
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { contextBlock } from '../../machines/context/context-block.js';
import { CONTEXT_DIR, CONTEXT_FILES, DEFAULT_CONTEXT_BUDGET } from '../../machines/context/context-files.js';
import { contextLayerExists } from '../../effects/context/context-layer-exists.js';
import { readContextFiles } from '../../effects/context/read-context-files.js';
import { YokeError } from '../../errors/yoke-error.js';
import { readCanonBytes } from '../canon.js';
import { findProject } from '../find-project.js';
import { loadConfig } from '../load-config.js';

/** What `yoke context --json` prints. */
interface ContextReport {
  files: { name: string; bytes: number | null; injected: number }[];
  budget: number;
  block: string;
}

/** Print what the next prompt would open with. */
export async function contextCommand(flags: { json: boolean }): Promise<number> {
  const paths = findProject(process.cwd());
  // The budget is yoke.conf's `context-budget` when the workspace has a yoke.conf; a bad one is refused like `yoke run` refuses it.
  const budget = existsSync(paths.conf) ? (loadConfig(paths, (line) => process.stderr.write(`${line}\n`)).contextBudget ?? DEFAULT_CONTEXT_BUDGET) : DEFAULT_CONTEXT_BUDGET;
  const layer = contextLayerExists(paths.root);
  const files = layer ? await readContextFiles(paths.root) : CONTEXT_FILES.map((name) => ({ name, content: null }));
  const built = layer ? contextBlock(files.map((file) => ({ name: file.name, text: file.content?.toString('utf8') ?? null })), budget) : { block: '', shares: [] };
  const report: ContextReport = {
    files: files.map((file) => ({ name: file.name, bytes: file.content?.length ?? null, injected: built.shares.find((share) => share.name === file.name)?.injected ?? 0 })),
    budget,
    block: built.block,
  };
  if (flags.json) {
    process.stdout.write(`${JSON.stringify(report)}\n`);
    return 0;
  }
  if (!layer) {
    process.stdout.write(`No ${CONTEXT_DIR}/ in this project: agent prompts carry no Project context block. \`yoke context init\` creates it with templates.\n`);
    return 0;
  }
  const lines = [`${CONTEXT_DIR}/ (context-budget ${budget} characters):`];
  for (const file of report.files) {
    lines.push(`  ${file.name.padEnd(13)} ${file.bytes === null ? 'missing'.padStart(12) : `${file.bytes} bytes`.padStart(12)}  ${file.injected} characters in the block`);
  }
  lines.push(report.block === '' ? 'The next prompt carries no Project context block (no file has text).' : `The next prompt opens with this block (${report.block.length} characters):\n`);
  process.stdout.write(`${lines.join('\n')}\n${report.block}`);
  return 0;
}

/** Write the canon's template of each missing context file; never overwrites one. */
export function contextInitCommand(flags: { json: boolean }): number {
  const paths = findProject(process.cwd());
  const dir = join(paths.root, CONTEXT_DIR);
  for (const part of ['.yoke', CONTEXT_DIR]) {
    const path = join(paths.root, part);
    if (existsSync(path) && !statSync(path).isDirectory()) {
      throw new YokeError('usage', `${part} is a file, not a folder; move it out of the way and run \`yoke context init\` again (nothing was written).`);
    }
  }
  const written: string[] = [];
  const kept: string[] = [];
  mkdirSync(dir, { recursive: true });
  for (const name of CONTEXT_FILES) {
    const path = join(dir, name);
    if (existsSync(path)) {
      kept.push(name);
      continue;
    }
    writeFileSync(path, readCanonBytes(`context/${name}`), { flag: 'wx' });
    written.push(name);
  }
  if (flags.json) {
    process.stdout.write(`${JSON.stringify({ dir: CONTEXT_DIR, written, kept })}\n`);
    return 0;
  }
  const lines = [
    written.length > 0 ? `Wrote ${written.map((name) => `${CONTEXT_DIR}/${name}`).join(', ')}.` : `Every context file exists already; nothing was written.`,
    ...(kept.length > 0 && written.length > 0 ? [`Kept ${kept.join(', ')} as they are.`] : []),
    'Every agent prompt now opens with a Project context block made of these files (`yoke context` shows it).',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}
