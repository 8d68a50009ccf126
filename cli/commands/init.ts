// `yoke init <mode>`: write a mode's template files into .loop/ (never overwriting without --force).
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { lifecycleNames } from '../../config/lifecycle-catalog.js';
import { LIFECYCLE_REGISTRY, lifecycleNamed } from '../../machines/lifecycles/registry.js';
import { YokeError } from '../../errors/yoke-error.js';
import { lifecycleTemplates } from '../canon.js';
import { findProject } from '../find-project.js';
import { chooseInitAgent } from '../init-agent-choice.js';
import { templateWithAgent } from '../template-agent.js';

export interface InitFlags {
  force: boolean;
  json: boolean;
  /** `--agent <name>`: the built-in agent to write instead of the first one on PATH */
  agent?: string | undefined;
}

/** Plan (which files, which already exist, which agent), then write. */
export function initCommand(modeArgument: string, flags: InitFlags): number {
  const lifecycle = lifecycleNamed(modeArgument);
  if (!lifecycle) throw new YokeError('usage', `unknown mode \`${modeArgument}\`; use one of: ${lifecycleNames(LIFECYCLE_REGISTRY).join(', ')}.`);
  const templates = lifecycleTemplates(lifecycle);
  const agent = chooseInitAgent(flags.agent, process.env.PATH ?? '');
  const paths = findProject(process.cwd());
  const names = Object.keys(templates.files);
  const clashes = names.filter((name) => name !== '.gitignore' && existsSync(join(paths.loopDir, name)));
  if (clashes.length > 0 && !flags.force) {
    const shown = clashes.map((name) => relative(process.cwd(), join(paths.loopDir, name)) || name).join(', ');
    throw new YokeError('usage', `${shown} already exist${clashes.length === 1 ? 's' : ''}; nothing was written. Use \`yoke init ${lifecycle.name} --force\` to overwrite, or \`yoke stash\` to park the current files first.`);
  }
  mkdirSync(paths.loopDir, { recursive: true });
  const written: string[] = [];
  for (const name of names) {
    const target = join(paths.loopDir, name);
    // .gitignore is yoke's own (it keeps .journal/ and .stash/ out of commits): always current.
    const content = templates.files[name];
    if (!content) continue;
    writeFileSync(target, name === 'yoke.conf' ? templateWithAgent(content.toString('utf8'), agent.lines) : content);
    written.push(`.loop/${name}`);
  }
  if (flags.json) {
    process.stdout.write(`${JSON.stringify({ mode: lifecycle.name, written, agent: { line: agent.lines.agent, how: agent.how, path: agent.path } })}\n`);
  } else {
    process.stdout.write(`Initialized ${lifecycle.name} mode in ${relative(process.cwd(), paths.loopDir) || '.loop'}:\n`);
    for (const file of written) process.stdout.write(`  ${file}\n`);
    process.stdout.write(`${agent.message}\n`);
    process.stdout.write(`${nextStep(lifecycle)}\n`);
  }
  return 0;
}

/**
 * What to do after `yoke init`: write the plan the worker works from when it is a spec file the
 * user writes (plan.md, goal.md, prd.yaml), else fill in the mode's spec files (saga: the scoper
 * writes the plan from specification.md).
 */
function nextStep(lifecycle: { planFile: string; init: { spec: readonly string[] } }): string {
  const own = lifecycle.init.spec.filter((name) => name !== 'yoke.conf').map((name) => `.loop/${name}`);
  const what = lifecycle.init.spec.includes(lifecycle.planFile) ? `describe the work in .loop/${lifecycle.planFile}` : `fill in ${own.join(', ')}`;
  return `Next: ${what}, set the guards in .loop/yoke.conf, then \`yoke run\`.`;
}
