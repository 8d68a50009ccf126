// What the retrofit wants a project path to hold, before looking at the project.
import type { JsonDialect, JsonPart } from './json-parts.js';
import type { MarkerStyle } from './marked-block.js';
import type { RetrofitAgent } from './retrofit-agents.js';
import type { TomlTable } from './toml-block.js';

/** Common fields: the project path, why it is generated, for which agents. */
interface ArtifactBase {
  path: string;
  /** one line: why this path is generated */
  reason: string;
  /** the agents that read it (empty: every agent, e.g. the context templates) */
  agents: RetrofitAgent[];
}

/** One generated path. */
export type RetrofitArtifact =
  /** the whole file is yoke's (skills, commands, policy) */
  | (ArtifactBase & { kind: 'file'; content: string })
  /** written once when missing, then the user's (context templates) */
  | (ArtifactBase & { kind: 'seed'; content: string })
  /** a marked block in a text file that may hold the user's text too; `satisfiedBy` = a line outside the block that already does its job */
  | (ArtifactBase & { kind: 'block'; style: MarkerStyle; body: string; satisfiedBy?: RegExp })
  /** a marked block of TOML tables at the end of a TOML file, checked by parsing */
  | (ArtifactBase & { kind: 'toml'; value: TomlTable })
  /** items yoke owns in a JSON settings file */
  | (ArtifactBase & { kind: 'json'; dialect: JsonDialect; parts: JsonPart[] });
