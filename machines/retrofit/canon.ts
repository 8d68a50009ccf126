// The canon as retrofit uses it: validated text, ready to be rendered per agent.
import type { ArtifactKind, RetrofitAgent } from './retrofit-agents.js';
import type { SkillFile } from './skill-file.js';

/** A canon file installed as it is (policy, context templates). */
export interface CanonText {
  /** its path under canon/, e.g. policy/gates.md */
  path: string;
  /** its file name, e.g. gates.md */
  name: string;
  text: string;
}

/** Everything `yoke retrofit` installs. */
export interface Canon {
  version: number;
  /** the portable baseline (canon/AGENTS.md) */
  instructions: string;
  skills: SkillFile[];
  policy: CanonText[];
  context: CanonText[];
  agents: Partial<Record<RetrofitAgent, ArtifactKind[]>>;
}

/** The canon folder's files as read from disk: relative path → text, and the folders under skills/. */
export interface CanonFiles {
  files: ReadonlyMap<string, string>;
  skillFolders: readonly string[];
}

/** The file name of a path. */
export function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}
