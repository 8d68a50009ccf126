// Reads the project paths the retrofit planner asks for: text, or absent, or not UTF-8 text, and the
// links on their way (a link is read through; one leading out of the project is never read).
import { join } from 'node:path';
import type { ProjectFiles } from '../../machines/retrofit/retrofit-plan.js';
import { readOptionalFile } from '../fs/read-optional-file.js';
import { projectLinks } from './project-links.js';

/** The text of each path under `root` (null when absent); bytes that are not UTF-8 are marked, never decoded lossy. */
export async function readProjectFiles(root: string, paths: readonly string[]): Promise<ProjectFiles> {
  const files = new Map<string, string | null>();
  const notText = new Set<string>();
  const links = await projectLinks(root, paths);
  for (const path of paths) {
    const linked = links.get(path);
    if (linked !== undefined && 'refused' in linked) {
      files.set(path, null);
      continue;
    }
    const bytes = await readOptionalFile(join(root, path));
    if (bytes === null) {
      files.set(path, null);
      continue;
    }
    const text = bytes.toString('utf8');
    if (!Buffer.from(text, 'utf8').equals(bytes)) notText.add(path);
    files.set(path, text);
  }
  return { files, notText, ...(links.size > 0 ? { links } : {}) };
}
