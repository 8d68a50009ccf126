// What `yoke run` and `yoke config check` say about prd.yaml's `journey:` checks (DESIGN §8, §12):
// each must name a declared journey, and parallel lanes (DESIGN §10) cannot run one yet.
import { parsePrd } from '../config/prd/parse-prd.js';
import type { Config, ConfigIssue } from '../config/types.js';
import { storyCheckIssues } from '../machines/acceptance/story-criteria.js';
import { LIFECYCLES } from '../machines/lifecycles/registry.js';
import type { WorkspacePaths } from '../store/session/workspace-paths.js';
import { loopFileReader } from './loop-file-reader.js';

/** The issues of prd.yaml's story checks under `config`; none outside stories mode or for a prd.yaml that does not parse (its own issues say why). */
export function storyCheckIssuesOf(config: Config, paths: WorkspacePaths): ConfigIssue[] {
  if (LIFECYCLES[config.mode]?.features.includes('stories') !== true) return [];
  const { stories } = parsePrd(loopFileReader(paths)('prd.yaml') ?? '', '.loop/prd.yaml');
  return stories === null ? [] : storyCheckIssues(config, stories);
}
