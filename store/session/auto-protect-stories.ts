// What `protect auto` reads besides yoke.conf (DESIGN §16): in a stories lifecycle, prd.yaml's
// stories, whose `check` commands decide "done" as much as the config's `accept` commands do.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Story } from '../../config/prd/story.js';
import { parsePrd } from '../../config/prd/parse-prd.js';
import type { Config } from '../../config/types.js';
import { lifecycleNamed } from '../../machines/lifecycles/registry.js';
import type { WorkspacePaths } from './workspace-paths.js';

/**
 * The stories of `.loop/prd.yaml` when the config's lifecycle has stories, else none. Read as it
 * parses: an invalid prd.yaml gives none here (`yoke run` and `config check` refuse it on their own).
 */
export function autoProtectStories(paths: WorkspacePaths, config: Config | null): Story[] {
  if (config === null || lifecycleNamed(config.mode)?.features.includes('stories') !== true) return [];
  const file = join(paths.loopDir, 'prd.yaml');
  if (!existsSync(file)) return [];
  return parsePrd(readFileSync(file, 'utf8'), '.loop/prd.yaml').stories ?? [];
}
