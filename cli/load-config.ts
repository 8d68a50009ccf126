// Reads and validates .loop/yoke.conf; every problem is reported before anything runs.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { formatIssue } from '../config/format-issue.js';
import { withAlternatives, type LifecycleCatalog } from '../config/lifecycle-catalog.js';
import { parseConfig } from '../config/parse-config.js';
import type { Config, ConfigIssue } from '../config/types.js';
import { LIFECYCLE_REGISTRY } from '../machines/lifecycles/registry.js';
import type { WorkspacePaths } from '../store/session/workspace-paths.js';
import { YokeError } from '../errors/yoke-error.js';

/** Parse the workspace's config against `lifecycles`; returns every issue, the config when there is no error, and the text read. */
export function checkConfig(paths: WorkspacePaths, lifecycles: LifecycleCatalog = LIFECYCLE_REGISTRY): { file: string; config: Config | null; issues: ConfigIssue[]; text: string } {
  const file = relative(process.cwd(), paths.conf) || paths.conf;
  let text: string;
  try {
    text = readFileSync(paths.conf, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new YokeError('usage', `${file} does not exist; run ${withAlternatives(lifecycles, (name) => `\`yoke init ${name}\``)} to create the workspace.`);
    }
    throw error;
  }
  return { file, ...parseConfig(text, file, lifecycles), text };
}

/** The valid config, or a `usage` error listing every problem (warnings go to `warn`). */
export function loadConfig(paths: WorkspacePaths, warn: (line: string) => void): Config {
  const { file, config, issues } = checkConfig(paths);
  const errors = issues.filter((issue) => issue.severity === 'error');
  for (const issue of issues) if (issue.severity === 'warning') warn(formatIssue(issue));
  if (!config || errors.length > 0) {
    const [first, ...rest] = errors;
    throw new YokeError(
      'usage',
      first ? formatIssue(first) : `${file} is not valid`,
      [...rest.map(formatIssue), `${errors.length} error(s) in ${file}; nothing was run or changed.`],
    );
  }
  return config;
}
