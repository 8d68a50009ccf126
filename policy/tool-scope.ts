// What a tool call is classified against: the run's boundary, protected paths and spec files.
//
// Plain data, so a ruling can be re-derived from a journaled request: the gate records the scope it
// classified with, and replay hands the same scope back.

/** The project and run a tool call is judged in. Paths are absolute and posix. */
export interface ToolScope {
  /** The project root (absolute). */
  root: string;
  /** The directory the call runs in (absolute): the hook's `cwd`, or the root. */
  cwd: string;
  /** The user's home directory, for `~`; absent: `~/…` counts as outside the project. */
  home?: string;
  /** `allow` prefixes, project-relative, as config/ normalizes them (longest prefix wins). */
  allow: readonly string[];
  /** `no-modify` prefixes, project-relative. */
  noModify: readonly string[];
  /** `protect` paths or globs, project-relative (may be empty). */
  protect: readonly string[];
  /** The spec files, relative to `.loop/` (`yoke.conf`, `plan.md`, …). */
  specFiles: readonly string[];
  /**
   * The project's tracked files, project-relative; absent when unknown. Deleting or truncating
   * something that holds no tracked file is then a plain write; with no list every deletion counts
   * as destroying tracked work.
   */
  tracked?: readonly string[];
  /**
   * In a journaled scope only: the digest (policy/gate/tracked-digest.ts) of the tracked list that an
   * earlier request of the same agent call journals whole; replay puts the list back before it rules.
   */
  trackedDigest?: string;
  /**
   * In a parallel lane: the project-relative folders that are links to the main tree's own (its
   * installed dependencies, docs/parallel.md#where-lanes-work). Writing or deleting under one would
   * change the main tree's copy, which every lane uses: protected.
   */
  shared?: readonly string[];
  /** Absolute prefixes outside the project where writes are plain edits (the run's temp dir). */
  scratch?: readonly string[];
  /**
   * The text of script files the call runs (`sh x.sh`, `./x`, `python x.py`, a Makefile), by
   * absolute path, as the gate read them when it ruled (null: absent, not text, or too large).
   * Journaled with the scope, so replay classifies the same text.
   */
  scripts?: Readonly<Record<string, string | null>>;
}

/** The files of `.loop/` the agents write: their writes are edits, not protected. */
export const AGENT_FACING_LOOP_FILES = ['notes.md', 'verdict.md', 'sub-plan.md', 'saga-notes.md'] as const;

/** The spec files of every lifecycle (DESIGN §1), relative to `.loop/`: a default for callers with no run. */
export const SPEC_FILES = ['yoke.conf', 'plan.md', 'protocol.md', 'judge.md', 'goal.md', 'specification.md', 'prd.yaml'] as const;
