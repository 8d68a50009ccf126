// How a work loop is built: the build-time options that are the only difference between lifecycles inside machines/.
import type { AcceptanceCheckParams } from '../acceptance/acceptance-check.js';
import type { PlannedCheck } from './guard-report.js';
import type { WorkContext } from './work-context.js';

/** How a work loop is built. */
export interface WorkLoopOptions {
  /** the lifecycle, as commit messages name it (`yoke: goal done after attempt 3`) */
  name: string;
  /** what one pass is called in commit messages: `iteration`, or `attempt` in goal */
  unit: string;
  /** brute/saga: a judge must agree before the loop succeeds */
  judged: boolean;
  /** a whole run (fires `done`/`bailout` hooks) rather than one saga chunk */
  terminal: boolean;
  /** the plan the worker follows, relative to .loop/ (`plan.md`, or `sub-plan.md` in saga) */
  planFile: string;
  /** goal: iterations are attempts, acceptance decides, repeated identical failures block */
  goal?: boolean;
  /** stories: more template values for the worker's and the judge's prompts (the story, the progress, the feedback) */
  promptValues?: (context: WorkContext) => Readonly<Record<string, string | number>>;
  /** stories: checks run after the guards (the story's executable criteria) */
  extraChecks?: (context: WorkContext) => PlannedCheck[];
  /** stories: the acceptance check run after every other check (the story's journeys), or null for none */
  acceptance?: (context: WorkContext) => AcceptanceCheckParams | null;
  /** stories: the story an agent call works on, journaled with the call */
  storyOf?: (context: WorkContext) => string | null;
  /**
   * stories: the user's edits of a spec file are journaled as the run resumes (STORIES_CHANGED), so a
   * spec restore outstanding then restores once more (in runs that restore after calls)
   */
  editsOnResume?: true;
}
