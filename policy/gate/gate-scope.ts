// The scope a gate classifies a call in, from the run's (or workspace's) config: the boundary and
// its `protect` patterns, the spec files, the project root and the hook's cwd.
import type { Config } from '../../config/types.js';
import { SPEC_FILES, type ToolScope } from '../tool-scope.js';

/** The parts of a config the scope needs (a workspace with no yoke.conf has none). */
export type ScopeConfig = Pick<Config, 'allow' | 'noModify'> | null;

/**
 * The scope of a call in `root` (absolute), run in `cwd` (the hook's, else the root). `protect` is
 * the resolved `protect` patterns (`auto` expanded; a run's are those of its protection baseline);
 * `tracked` the project's tracked files (null: unknown, and every deletion counts as destructive).
 * With no config the boundary is open (every project path may be edited) and only the fixed
 * protected paths hold: `.loop/`, `.git/`, agents' settings and the spec files.
 * @example gateScope('/p', null, null, '/home/u').allow // []
 */
export function gateScope(root: string, cwd: string | null, config: ScopeConfig, home: string | null, protect: readonly string[] = [], tracked: readonly string[] | null = null): ToolScope {
  return {
    root,
    cwd: cwd ?? root,
    ...(home === null ? {} : { home }),
    allow: config?.allow ?? [],
    noModify: config?.noModify ?? [],
    protect: [...protect],
    specFiles: [...SPEC_FILES],
    ...(tracked === null ? {} : { tracked }),
  };
}
