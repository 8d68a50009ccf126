// `yoke clean`: stash everything, then start over from the mode's templates, keeping the spec files.
import type { Mode } from '../../config/types.js';
import { readModeTag } from '../../store/stash/mode-tag.js';
import { performStashOp } from '../../store/stash/stash-operation.js';
import { checkStashable, visibleNames } from '../../store/stash/stash-scan.js';
import { YokeError } from '../../errors/yoke-error.js';
import { modeTemplates } from '../canon.js';
import { entryJson, entryLabel, shortId } from '../stash-format.js';
import { withStashSession, type StashPreview } from '../stash-session.js';

/**
 * Auto-stash all of `.loop/` (spec 3.2), then write back the mode's spec files as they were (the
 * user's plan, protocol, conf, …) and fresh templates for everything else the mode starts with
 * (notes.md, …). Run state such as verdict.md, guard-results.md or saga-log.md is gone from
 * `.loop/` but safe in the stash entry.
 */
export function cleanCommand(flags: { json: boolean }): Promise<number> {
  const nothing = (): number => {
    if (flags.json) process.stdout.write(`${JSON.stringify({ stashed: null, kept: [], fresh: [] })}\n`);
    else process.stdout.write('Nothing to clean: .loop/ holds only dotfiles.\n');
    return 0;
  };
  const preflight = ({ paths }: StashPreview): number | null => {
    if (visibleNames(paths.loopDir).length === 0) return nothing();
    templatesOf(paths.conf);
    checkStashable(paths.loopDir);
    return null;
  };
  return withStashSession('yoke clean', preflight, async ({ paths, ctx, index }) => {
    if (visibleNames(paths.loopDir).length === 0) return nothing();
    const { mode, templates } = templatesOf(paths.conf);
    const files = Object.entries(templates.files).filter(([name]) => name !== '.gitignore').map(([name, content]) => ({ name, content }));
    const outcome = await performStashOp(ctx, index, {
      op: 'clean',
      push: { mode, message: 'before yoke clean' },
      restore: null,
      init: { mode, files, keep: templates.spec },
    });
    const stashedNames = new Set(outcome.pushed?.entries.map((entry) => entry.path) ?? []);
    const kept = templates.spec.filter((name) => stashedNames.has(name));
    const fresh = outcome.initialized.filter((name) => !kept.includes(name));
    if (flags.json) {
      process.stdout.write(`${JSON.stringify({ stashed: outcome.pushed ? entryJson(outcome.pushed) : null, kept, fresh })}\n`);
      return 0;
    }
    if (outcome.pushed) process.stdout.write(`Stashed ${entryLabel(outcome.pushed)}.\n`);
    if (kept.length > 0) process.stdout.write(`Kept your spec files: ${kept.join(', ')}.\n`);
    if (fresh.length > 0) process.stdout.write(`Fresh from the ${mode} templates: ${fresh.join(', ')}.\n`);
    if (outcome.pushed) process.stdout.write(`Everything else is in the stash: \`yoke stash checkout ${shortId(outcome.pushed.id)}\` brings it all back.\n`);
    return 0;
  });
}

/** The workspace's mode and its templates; a usage error when the conf names no known mode. */
function templatesOf(conf: string): { mode: Mode; templates: NonNullable<ReturnType<typeof modeTemplates>> } {
  const mode = readModeTag(conf);
  const templates = mode === 'unknown' ? null : modeTemplates(mode);
  if (mode === 'unknown' || !templates) {
    throw new YokeError('usage', `yoke clean keeps the spec files of the workspace's mode, but ${conf} names no mode this yoke knows; fix its \`mode\` line, or use \`yoke stash\` to park everything. Nothing was changed.`);
  }
  return { mode, templates };
}
