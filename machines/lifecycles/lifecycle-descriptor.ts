// What a lifecycle is to the rest of yoke: one descriptor per lifecycle, in its own file, listed in
// registry.ts. Everything outside that file asks the descriptor (help, mode validation, init
// templates, prompts, agent availability, progress wording) instead of switching on the mode name.
//
// Pure data and pure functions: a descriptor names canon files but never reads them; whoever needs
// their text passes a CanonReader in.
import type { AnyStateMachine } from 'xstate';
import type { AgentRole, LifecycleTraits } from '../../config/lifecycle-catalog.js';
import type { Config, ConfigIssue } from '../../config/types.js';
import type { MachineEvent } from '../effect-events.js';
import type { EffectRequest } from '../effects.js';
import type { WorkContext, WorkInput } from '../work/work-context.js';

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
  /** The lifecycle's own files checked before anything runs, a new run or a resumed one (stories: prd.yaml), each problem located; absent = nothing to check. */
  readonly validate?: (readLoopFile: LoopFileReader) => ConfigIssue[];
  /**
   * What its unfinished run journals when it resumes because the user changed its own files since
   * (stories: the edits to prd.yaml), or null; called only after `validate` found no error. Pure:
   * the edit is data, `yoke run` applies it (files, blobs) before journaling the event.
   */
  readonly resumeEdit?: (context: WorkContext, readLoopFile: LoopFileReader) => ResumeEdit | null;
  /**
   * Problems its own files (already validated) have, as its unfinished run resumes, with work the run
   * decided before it stopped and still owes (`pending`: the requests not yet told to the machine),
   * each located (stories: prd.yaml no longer has a story whose pass is outstanding, or changed its
   * criteria). Any error refuses the resume before anything is journaled; absent = none.
   */
  readonly resumeIssues?: (context: WorkContext, readLoopFile: LoopFileReader, pending: readonly EffectRequest[]) => ConfigIssue[];
  /**
   * Its own files its unfinished run holds that are missing as it resumes (stories: a prd.yaml an
   * agent removed before the run could restore it), put back before `validate` reads them: name →
   * content as the run holds it, and what to tell the user; null when none is missing. Pure: the
   * blobs are read through `readBlob`, `yoke run` writes the files.
   */
  readonly resumeRestore?: (context: WorkContext, readLoopFile: LoopFileReader, readBlob: BlobReader) => ResumeRestore | null;
  /**
   * What a new run of it journals first because the user changed its own files since its last run
   * ended (stories: prd.yaml against that run's final story list; a story it passed whose criteria
   * changed is reopened), or null. `last` is that run's final context; called after `validate` found
   * no error. Pure, like `resumeEdit`; the event names no blob (the new run backs its files up as it starts).
   */
  readonly sinceLastRun?: (last: WorkContext, readLoopFile: LoopFileReader) => ResumeEdit | null;
  /** The line `yoke run` prints when a run of it ends for `reason`, or null for the generic `finished: <reason>`. */
  finished(reason: string, context: Partial<WorkContext>): string | null;
  /**
   * What a judge's DONE-triggered FAIL counts toward, for the progress line (stories: `attempt 2 of
   * 3 on story S2`, its `max-story-attempts`); absent or null = the consecutive FAILs of
   * `max-judge-failures`.
   */
  readonly judgeFail?: (context: Partial<WorkContext>) => string | null;
  /** How many of its work items passed (stories: its stories), for status and the live status line; absent or null = it counts none. */
  readonly progress?: (context: Partial<WorkContext>) => ItemProgress | null;
  /** The sentence for a run held by something of its own (stories: Stop-the-Line), with what to do; null = not one of its holds. */
  readonly held?: (run: string, context: WorkContext) => string | null;
  /** The fleet may be queued a job meant for it (`yoke queue add --mode`). */
  readonly fleet?: true;
}

/** How far a run is through its list of work items: `passed` of `total` `items` (`stories`). */
export interface ItemProgress {
  readonly passed: number;
  readonly total: number;
  readonly items: string;
}

/** A run's own files changed since it last saw them (while it was stopped, or since the last run): the event that tells its machine, and what to write first. */
export interface ResumeEdit {
  /** journaled as the run resumes (or right after a new run's run.started) */
  readonly event: MachineEvent;
  /** files under .loop/ to rewrite first (name → content) */
  readonly writes: Readonly<Record<string, string>>;
  /** contents to keep as blobs first, which `event` names by their sha256 */
  readonly blobs: readonly string[];
  /** what to tell the user, in order */
  readonly notices: readonly Notice[];
}

/** Its own files put back as a run resumes: what to write, and what to tell the user. */
export interface ResumeRestore {
  /** files under .loop/ to write (name → content) */
  readonly writes: Readonly<Record<string, string>>;
  readonly notices: readonly Notice[];
}

/** One line for the user: a warning, or a progress line. */
export interface Notice {
  readonly level: 'warn' | 'progress';
  readonly text: string;
}

/** Reads a file under .loop/ by its name there, null when absent (the caller's I/O). */
export type LoopFileReader = (name: string) => string | null;

/** Reads a stored blob's text by its sha256 (the caller's I/O); a missing or corrupt blob refuses the workspace. */
export type BlobReader = (sha: string) => string;
