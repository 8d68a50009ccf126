// The descriptor of a lifecycle built on the shared work states (loop, brute, saga, goal): its roles
// follow from its prompts, and its run input is the worker/judge/scoper templates plus its spec files.
import { AGENT_ROLES } from '../../config/lifecycle-catalog.js';
import type { Config } from '../../config/types.js';
import type { WorkContext, WorkInput } from '../work/work-context.js';
import type { CanonReader, LifecycleDescriptor } from './lifecycle-descriptor.js';
import { workFinished } from './work-finished.js';

/** What a work lifecycle declares; `roles`, `rolesCalled` and `input` are derived from it. */
export interface WorkLifecycleSpec extends Omit<LifecycleDescriptor, 'roles' | 'rolesCalled' | 'input' | 'finished'> {
  /** its own final lines (goal, saga), asked before the shared ones (workFinished) */
  readonly finished?: LifecycleDescriptor['finished'];
  /** goal: the canon file appended to the worker's prompt after a second identical failure */
  readonly diagnosePrompt?: string;
  /** goal: new runs check acceptance with the check engine (journaled in their input, DESIGN §12) */
  readonly acceptanceEngine?: 'check';
}

/** The descriptor of a work lifecycle: every role with a prompt is called, in the order worker, judge, scoper; its final lines are its own, else the shared states' in its unit. */
export function workLifecycle(spec: WorkLifecycleSpec): LifecycleDescriptor {
  const roles = AGENT_ROLES.filter((role) => spec.prompts[role] !== undefined);
  return {
    ...spec,
    roles,
    rolesCalled: () => roles,
    input: (config, canon, loopDir) => workInput(spec, config, canon, loopDir),
    finished: (reason: string, context: Partial<WorkContext>) => spec.finished?.(reason, context) ?? workFinished(reason, context, spec.unit),
  };
}

/** The input of a new run: each role's template, the diagnosis addendum (goal), and the spec files. */
function workInput(spec: WorkLifecycleSpec, config: Config, canon: CanonReader, loopDir: string): WorkInput {
  const template = (paths: readonly string[]) => paths.map(canon).join('');
  const { judge, scoper } = spec.prompts;
  return {
    config,
    workerPrompt: template(spec.prompts.worker),
    ...(spec.diagnosePrompt !== undefined ? { diagnosePrompt: canon(spec.diagnosePrompt) } : {}),
    ...(judge !== undefined ? { judgePrompt: template(judge) } : {}),
    ...(scoper !== undefined ? { scoperPrompt: template(scoper) } : {}),
    loopDir,
    specFiles: [...spec.init.spec],
    // spec 1.1: new runs restore the spec files after every agent call too (journaled: old runs fold as they did)
    restoresAfterCalls: true,
    ...(spec.acceptanceEngine !== undefined ? { acceptanceEngine: spec.acceptanceEngine } : {}),
  };
}
