// The agents `yoke retrofit` installs the canon into, and what each of them can receive.

/** Agents with a retrofit target. */
export const RETROFIT_AGENTS = ['claude', 'codex', 'gemini'] as const;
/** One of them. */
export type RetrofitAgent = (typeof RETROFIT_AGENTS)[number];

/** What the canon can give an agent (canon/manifest.yaml `agents:`). */
export const ARTIFACT_KINDS = ['instructions', 'skills', 'commands', 'gate'] as const;
/** One of them. */
export type ArtifactKind = (typeof ARTIFACT_KINDS)[number];

/**
 * What each installed CLI supports, checked against Claude Code 2.1.332, Codex 0.171.0 and Gemini
 * CLI 0.61.0 (docs/retrofit.md). Codex has no project slash commands of its own: skills serve it.
 */
export const SUPPORTED_KINDS: { readonly [A in RetrofitAgent]: readonly ArtifactKind[] } = {
  claude: ['instructions', 'skills', 'gate'],
  codex: ['instructions', 'skills', 'gate'],
  gemini: ['instructions', 'skills', 'commands', 'gate'],
};

/** True for a name of a retrofit agent. */
export function isRetrofitAgent(name: string): name is RetrofitAgent {
  return (RETROFIT_AGENTS as readonly string[]).includes(name);
}

/** True for a name of an artifact kind. */
export function isArtifactKind(name: string): name is ArtifactKind {
  return (ARTIFACT_KINDS as readonly string[]).includes(name);
}
