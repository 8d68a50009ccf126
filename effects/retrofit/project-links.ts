// Symbolic links on the way to the paths `yoke retrofit` reads and writes: `CLAUDE.md → AGENTS.md`,
// a shared `.agents/skills → ../.claude/skills`, or a `.claude → ~/.claude` that leaves the project.
// The retrofit writes only inside the project, through a link to where the bytes really are (so the
// link stays a link), and never through one that leads out.
import { lstat, readlink, realpath, stat } from 'node:fs/promises';
import { isAbsolute, join, relative, sep } from 'node:path';
import type { LinkedPath } from '../../machines/retrofit/retrofit-plan.js';
import { YokeError } from '../../errors/yoke-error.js';

/** The first prefix of `path` that is a link, how many leading segments exist, or null when none is a link. */
async function firstLink(root: string, segments: readonly string[]): Promise<{ link: string | null; existing: number }> {
  let link: string | null = null;
  let existing = 0;
  for (let count = 1; count <= segments.length; count += 1) {
    const info = await lstat(join(root, ...segments.slice(0, count))).catch(() => null);
    if (info === null) break;
    existing = count;
    if (link === null && info.isSymbolicLink()) link = segments.slice(0, count).join('/');
  }
  return { link, existing };
}

function outside(rel: string): boolean {
  return rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel);
}

/** Where `path` (project-relative) really is when a link is on its way, or why yoke may not follow it; null without a link. */
export async function linkedPath(root: string, path: string): Promise<LinkedPath | null> {
  const segments = path.split('/');
  const { link, existing } = await firstLink(root, segments);
  if (link === null) return null;
  const written = await readlink(join(root, link)).catch(() => '?');
  const top = await realpath(root);
  let real: string;
  try {
    real = join(await realpath(join(root, ...segments.slice(0, existing))), ...segments.slice(existing));
  } catch {
    return { refused: `\`${link}\` is a link to \`${written}\`, which does not exist; yoke does not write through it` };
  }
  const rel = relative(top, real);
  if (outside(rel)) return { refused: `\`${link}\` is a link to \`${written}\`, outside the project; yoke writes only inside it` };
  if (existing === segments.length && (await stat(real)).isDirectory()) return { refused: `\`${link}\` is a link to the folder \`${written}\`, where yoke expects a file` };
  return { real: rel.split(sep).join('/') };
}

/** `linkedPath` for each of `paths` that has a link on its way. */
export async function projectLinks(root: string, paths: readonly string[]): Promise<Map<string, LinkedPath>> {
  const links = new Map<string, LinkedPath>();
  for (const path of paths) {
    const linked = await linkedPath(root, path);
    if (linked !== null) links.set(path, linked);
  }
  return links;
}

/**
 * Refuse (a `workspace` error, exit 3) to write or delete `path` when it is not a plain relative
 * path inside the project, is a link itself, or a link on its way leads out of the project: checked again as files are changed, in case the project
 * changed since the plan was made. Nothing is written by the caller after a refusal.
 */
export async function assertWritableInProject(root: string, path: string): Promise<void> {
  const segments = path.split(/[\\/]/);
  if (isAbsolute(path) || segments.includes('..') || segments[0] === '.git' || segments.includes('')) {
    throw new YokeError('workspace', `${path} is not a path inside the project that yoke may write (absolute, \`..\`, .git/ or empty segments); nothing more was written.`);
  }
  const info = await lstat(join(root, path)).catch(() => null);
  if (info?.isSymbolicLink() === true) {
    throw new YokeError('workspace', `${path} became a link (to \`${await readlink(join(root, path)).catch(() => '?')}\`) since yoke planned to write it; nothing more was written — run yoke retrofit again.`);
  }
  const linked = await linkedPath(root, path);
  if (linked !== null && 'refused' in linked) throw new YokeError('workspace', `${path}: ${linked.refused}; nothing more was written.`);
}
