// The stories of a workspace's .loop/prd.yaml, validated as `yoke run` validates them.
import { formatIssue } from '../config/format-issue.js';
import { parsePrd } from '../config/prd/parse-prd.js';
import type { Story } from '../config/prd/story.js';
import { YokeError } from '../errors/yoke-error.js';
import type { WorkspacePaths } from '../store/session/workspace-paths.js';
import { loopFileReader } from './loop-file-reader.js';

/** prd.yaml's stories; a `usage` error (exit 2) listing every problem when it is invalid or missing. */
export function readPrdStories(paths: WorkspacePaths): Story[] {
  const { stories, issues } = parsePrd(loopFileReader(paths)('prd.yaml'), '.loop/prd.yaml');
  const errors = issues.filter((issue) => issue.severity === 'error');
  const [first, ...rest] = errors;
  if (stories === null || first) {
    throw new YokeError('usage', first ? formatIssue(first) : '.loop/prd.yaml is not valid', [...rest.map(formatIssue), `${errors.length} error(s) in .loop/prd.yaml; nothing was changed.`]);
  }
  return stories;
}
