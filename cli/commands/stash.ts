// `yoke stash [push] [-m <message>]`, `yoke stash pop`, `yoke stash checkout <prefix>`.
import { readModeTag } from '../../store/stash/mode-tag.js';
import { entryToPop, resolveStashPrefix, type IndexEntry, type StashIndex } from '../../store/stash/stash-index.js';
import { checkPoppable, checkRestorable, performStashOp } from '../../store/stash/stash-operation.js';
import { checkStashable, visibleNames } from '../../store/stash/stash-scan.js';
import { YokeError } from '../../errors/yoke-error.js';
import { entryJson, entryLabel, shortId } from '../stash-format.js';
import { withStashSession } from '../stash-session.js';

/** Park every non-dotfile entry of `.loop/` as a new stash entry; `.loop/` keeps only dotfiles. */
export function stashPushCommand(flags: { message?: string; json: boolean }): Promise<number> {
  const message = flags.message?.trim() ? flags.message : null;
  const print = (pushed: IndexEntry | null): number => {
    if (flags.json) {
      process.stdout.write(`${JSON.stringify({ stashed: pushed ? entryJson(pushed) : null })}\n`);
    } else if (pushed) {
      process.stdout.write(`Stashed ${entryLabel(pushed)}${message ? ` "${firstLine(message)}"` : ''}; .loop/ now holds only dotfiles.\n`);
      process.stdout.write(`Bring it back with \`yoke stash pop\` or \`yoke stash checkout ${shortId(pushed.id)}\`.\n`);
    } else {
      process.stdout.write('Nothing to stash: .loop/ holds only dotfiles.\n');
    }
    return 0;
  };
  return withStashSession(
    'yoke stash',
    ({ paths }) => {
      if (visibleNames(paths.loopDir).length === 0) return print(null);
      checkStashable(paths.loopDir);
      return null;
    },
    async ({ paths, ctx, index }) => {
      const outcome = await performStashOp(ctx, index, { op: 'stash', push: { mode: readModeTag(paths.conf), message }, restore: null, init: null });
      return print(outcome.pushed);
    },
  );
}

/** Restore the newest entry not popped yet into an empty `.loop/`. */
export function stashPopCommand(flags: { json: boolean }): Promise<number> {
  const target = (index: StashIndex): IndexEntry => {
    const entry = entryToPop(index);
    if (entry) return entry;
    throw new YokeError('usage', index.entries.length === 0
      ? 'nothing to pop: the stash is empty.'
      : `nothing to pop: all ${index.entries.length} stash entries were popped already; \`yoke stash checkout <id>\` restores any of them (see \`yoke stash list\`).`);
  };
  return withStashSession(
    'yoke stash pop',
    ({ paths, index, locate }) => {
      checkPoppable(paths.loopDir, target(index), locate);
      return null;
    },
    async ({ ctx, index }) => {
      const entry = target(index);
      await performStashOp(ctx, index, { op: 'pop', push: null, restore: entry, init: null });
      report(flags.json, null, entry);
      return 0;
    },
  );
}

/** Stash the current files, then restore the entry whose id starts with `prefix`. */
export function stashCheckoutCommand(prefix: string, flags: { json: boolean }): Promise<number> {
  return withStashSession(
    'yoke stash checkout',
    ({ paths, index, locate }) => {
      checkRestorable(resolveStashPrefix(index, prefix), locate);
      checkStashable(paths.loopDir);
      return null;
    },
    async ({ paths, ctx, index }) => {
      const target = resolveStashPrefix(index, prefix);
      const push = { mode: readModeTag(paths.conf), message: `before yoke stash checkout ${shortId(target.id)}` };
      const outcome = await performStashOp(ctx, index, { op: 'checkout', push, restore: target, init: null });
      report(flags.json, outcome.pushed, target);
      return 0;
    },
  );
}

function report(json: boolean, pushed: IndexEntry | null, restored: IndexEntry): void {
  if (json) {
    process.stdout.write(`${JSON.stringify({ stashed: pushed ? entryJson(pushed) : null, restored: entryJson(restored) })}\n`);
    return;
  }
  if (pushed) process.stdout.write(`Stashed the current files first as ${entryLabel(pushed)}.\n`);
  process.stdout.write(`Restored ${entryLabel(restored)}${restored.message ? ` "${firstLine(restored.message)}"` : ''} into .loop/.\n`);
}

function firstLine(text: string): string {
  return text.split('\n')[0] ?? '';
}
