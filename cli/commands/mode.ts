// `yoke mode <mode>`: stash the current files (tagged with the old mode), then fresh-init the new one.
import { readFileSync } from 'node:fs';
import { lifecycleNames } from '../../config/lifecycle-catalog.js';
import { LIFECYCLE_REGISTRY, lifecycleNamed } from '../../machines/lifecycles/registry.js';
import { readModeTag } from '../../store/stash/mode-tag.js';
import { performStashOp } from '../../store/stash/stash-operation.js';
import { checkStashable } from '../../store/stash/stash-scan.js';
import { YokeError } from '../../errors/yoke-error.js';
import { lifecycleTemplates } from '../canon.js';
import { chooseInitAgent, keptAgent, type InitAgentChoice } from '../init-agent-choice.js';
import { entryJson, entryLabel, shortId } from '../stash-format.js';
import { withStashSession, type StashPreview } from '../stash-session.js';
import { agentLinesIn, templateWithAgent } from '../template-agent.js';

/** The old conf's agent (and model) lines when it has an `agent` line, else the agent `yoke init` would pick. */
function workspaceAgent(conf: string): InitAgentChoice {
  let text = '';
  try {
    text = readFileSync(conf, 'utf8');
  } catch {
    // no yoke.conf yet: choose as init does
  }
  const lines = agentLinesIn(text);
  return lines === null ? chooseInitAgent(undefined, process.env.PATH ?? '') : keptAgent(lines);
}

/**
 * Switch modes (spec 6.1, 6.2): nothing of the old mode is lost, and the new mode starts from its
 * fresh templates. The one thing carried over is the workspace's agent choice (its `agent` and
 * `model` lines): which CLI is installed and wanted does not depend on the mode.
 */
export function modeCommand(modeArgument: string, flags: { json: boolean }): Promise<number> {
  const lifecycle = lifecycleNamed(modeArgument);
  if (!lifecycle) throw new YokeError('usage', `unknown mode \`${modeArgument}\`; use one of: ${lifecycleNames(LIFECYCLE_REGISTRY).join(', ')}. Nothing was changed.`);
  const templates = lifecycleTemplates(lifecycle);
  const preflight = ({ paths }: StashPreview): null => {
    checkStashable(paths.loopDir);
    return null;
  };
  return withStashSession('yoke mode', preflight, async ({ paths, ctx, index }) => {
    const from = readModeTag(paths.conf);
    const agent = workspaceAgent(paths.conf);
    const files = Object.entries(templates.files).map(([name, content]) => ({
      name, content: name === 'yoke.conf' ? Buffer.from(templateWithAgent(content.toString('utf8'), agent.lines)) : content,
    }));
    const outcome = await performStashOp(ctx, index, {
      op: 'mode',
      push: { mode: from, message: `before yoke mode ${lifecycle.name}` },
      restore: null,
      init: { mode: lifecycle.name, files, keep: [] },
    });
    const written = outcome.initialized.map((name) => `.loop/${name}`);
    if (flags.json) {
      process.stdout.write(`${JSON.stringify({ from, to: lifecycle.name, stashed: outcome.pushed ? entryJson(outcome.pushed) : null, written, agent: { line: agent.lines.agent, model: agent.lines.model, how: agent.how, path: agent.path } })}\n`);
      return 0;
    }
    if (outcome.pushed) process.stdout.write(`Stashed the ${from} files as ${entryLabel(outcome.pushed)}.\n`);
    process.stdout.write(`Initialized ${lifecycle.name} mode:\n`);
    for (const file of written) process.stdout.write(`  ${file}\n`);
    process.stdout.write(`${agent.message}\n`);
    if (outcome.pushed) process.stdout.write(`The previous session is not restored; \`yoke stash checkout ${shortId(outcome.pushed.id)}\` brings it back.\n`);
    return 0;
  });
}
