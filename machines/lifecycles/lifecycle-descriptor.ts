// What a lifecycle is to the rest of yoke: one descriptor per lifecycle, in its own file, listed in
// registry.ts. Everything outside that file asks the descriptor (help, mode validation, init
// templates, prompts, agent availability, progress wording) instead of switching on the mode name.
//
// Pure data and pure functions: a descriptor names canon files but never reads them; whoever needs
// their text passes a CanonReader in.
import type { AnyStateMachine } from 'xstate';
import type { AgentRole, LifecycleTraits } from '../../config/lifecycle-catalog.js';
import type { Config, ConfigIssue } from '../../config/types.js';
import type { WorkInput } from '../work/work-context.js';

/** A lifecycle machine and the version journaled with its runs: all that replaying a run needs. */
export interface Lifecycle {
  readonly name: string;
  readonly version: number;
  readonly machine: AnyStateMachine;
}

/** Each role's prompt template: the canon files (paths under canon/) joined in order. */
export type RolePrompts = { readonly worker: readonly string[] } & { readonly [R in Exclude<AgentRole, 'worker'>]?: readonly string[] };

/** What `yoke init <mode>` writes into .loop/ (name there → path under canon/), and which of those are spec files. */
export interface InitTemplates {
  readonly files: Readonly<Record<string, string>>;
  /** backed up when a run starts and restored before every iteration (spec 1.1); names relative to .loop/ */
  readonly spec: readonly string[];
}

/** Reads a file shipped under canon/ by its path there (the caller's I/O). */
export type CanonReader = (path: string) => string;

/** One lifecycle: its machine, its traits for config validation, its files and its wording. */
export interface LifecycleDescriptor extends Lifecycle, LifecycleTraits {
  /** one line for `yoke init --help` and `yoke mode --help` */
  readonly summary: string;
  /** the prompt template of each role in `roles` */
  readonly prompts: RolePrompts;
  /** the roles a run with `config` actually calls (a judge that is optional may be off); availability checks only these */
  rolesCalled(config: Config): readonly AgentRole[];
  /** what the worker works from, relative to .loop/ (`plan.md`, `goal.md`, saga's `sub-plan.md`) */
  readonly planFile: string;
  /** what one pass is called in progress lines and commit messages: `iteration`, `attempt` */
  readonly unit: string;
  readonly init: InitTemplates;
  /** The machine input journaled in a new run's `run.started`: the config, the prompts read through `canon`, `.loop/`'s absolute path, and (stories) what `readLoopFile` finds. */
  input(config: Config, canon: CanonReader, loopDir: string, readLoopFile?: LoopFileReader): WorkInput;
  /** The lifecycle's own files checked before anything runs (stories: prd.yaml), each problem located; absent = nothing to check. */
  readonly validate?: (readLoopFile: LoopFileReader) => ConfigIssue[];
}

/** Reads a file under .loop/ by its name there, null when absent (the caller's I/O). */
export type LoopFileReader = (name: string) => string | null;
