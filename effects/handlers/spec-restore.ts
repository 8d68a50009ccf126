// `spec.restore`: put every spec file back to its backed-up content, keeping whatever it displaces.
import { mkdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { LOOP_GITIGNORE } from '../../config/workspace-layout.js';
import type { EffectContext, EffectHandler } from '../handler.js';
import { blobPath, getBlob, putBlob, sha256 } from '../fs/blob-store.js';
import { loopPath } from '../fs/loop-path.js';
import { readOptionalFile } from '../fs/read-optional-file.js';
import { writeFileAtomic } from '../fs/write-file-atomic.js';

/**
 * Make each spec file equal its blob (remove it when the backup says absent): the one the run holds
 * when the restore runs (`heldSpecFiles`), which is newer than the request's only when the user's
 * edit was journaled after the restore was decided (named in `held`). Content that differs is
 * first stored as a blob and reported in `displaced`, so nothing is lost; `restored` lists (sorted)
 * the files that changed, and the terminal is told which spec files (an agent's edit never counts;
 * in a lane, not those that held a version yoke already keeps: another story's landing moved them on).
 * An existing file keeps its permission bits. A missing `.loop/.gitignore` (an agent ran `rm -rf
 * .loop`) is written back as `yoke init` writes it and listed too: without it the next commit would
 * record its deletion, and a `git add -A` would take the journal. Idempotent: a second run changes
 * nothing.
 */
export const restoreSpec: EffectHandler<'spec.restore'> = {
  policy: 'retry',
  async execute(params, ctx) {
    const restored: string[] = [];
    const displaced: Record<string, string> = {};
    // In a lane, a file that holds a version yoke already keeps as a blob (the spec as the run held it
    // before another story landed) is brought up to date, not an agent's edit: no warning for it.
    const known: string[] = [];
    const held = newerHeld(params.specFiles, ctx);
    for (const [name, decided] of Object.entries(params.specFiles)) {
      const hash = Object.hasOwn(held, name) ? held[name] ?? null : decided;
      const path = loopPath(ctx.loopDir, name);
      const current = await readOptionalFile(path);
      const wanted = hash === null ? null : await getBlob(ctx.loopDir, hash);
      if (current === null && wanted === null) continue;
      if (current !== null && wanted !== null && current.equals(wanted)) continue;
      if (current !== null) {
        if (params.lane !== undefined && (await stat(blobPath(ctx.loopDir, sha256(current))).then(() => true, () => false))) known.push(name);
        displaced[name] = await putBlob(ctx.loopDir, current);
      }
      if (wanted === null) {
        await rm(path, { force: true });
      } else {
        const mode = current === null ? undefined : (await stat(path)).mode & 0o7777;
        await writeFileAtomic(path, wanted, mode);
      }
      restored.push(name);
    }
    restored.sort();
    const told = restored.filter((name) => !known.includes(name));
    if (told.length > 0) ctx.warn(restoredSpecWarning(told, displaced, params.lane));
    // not a spec file (nothing of the user's to tell about), but the journal's shield
    if (await restoreLoopGitignore(ctx)) restored.push('.gitignore');
    return { restored: restored.sort(), displaced, ...(Object.keys(held).length > 0 ? { held } : {}) };
  },
};

/** The request's files whose version the run holds now differs from the one the request names (none in a lane). */
function newerHeld(specFiles: Readonly<Record<string, string | null>>, ctx: Pick<EffectContext, 'heldSpecFiles'>): Record<string, string | null> {
  const now = ctx.heldSpecFiles ?? {};
  return Object.fromEntries(Object.entries(specFiles).filter(([name, hash]) => Object.hasOwn(now, name) && now[name] !== hash).map(([name]) => [name, now[name] ?? null]));
}

/** The terminal line for spec files put back: which, where, and where what they held is kept. */
export function restoredSpecWarning(restored: readonly string[], displaced: Readonly<Record<string, string>>, lane?: string): string {
  const names = restored.map((name) => `.loop/${name}`).join(', ');
  const where = lane === undefined ? '' : ` in story ${lane}'s worktree`;
  const kept = restored.filter((name) => displaced[name] !== undefined).map((name) => `${name} as blob ${displaced[name]?.slice(0, 12) ?? ''}`);
  const keptText = kept.length === 0 ? '' : `; what was there is kept in .loop/.journal/blobs/ (${kept.join(', ')})`;
  return `spec file(s) ${names}${where} changed during the run; put back as the run holds them (an agent's edit never counts; change spec files after the run ends, or start over with \`yoke run --fresh\`)${keptText}.`;
}

/**
 * Write `.loop/.gitignore` when it is missing; true when it was. A lane's worktree (DESIGN §10) is
 * left alone: its `.loop/` holds what the project's commits hold, and its commits integrate.
 */
async function restoreLoopGitignore(ctx: Pick<EffectContext, 'loopDir' | 'projectLoopDir'>): Promise<boolean> {
  if (ctx.projectLoopDir !== undefined && ctx.projectLoopDir !== ctx.loopDir) return false;
  const path = join(ctx.loopDir, '.gitignore');
  if (await readOptionalFile(path) !== null) return false;
  await mkdir(ctx.loopDir, { recursive: true });
  await writeFileAtomic(path, LOOP_GITIGNORE);
  return true;
}
