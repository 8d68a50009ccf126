// The judge's turn in a judged loop (brute, each saga chunk, stories with `review on`): admission →
// stamp verdict.md → judge → (new runs) restore the spec files → (with protection) scan the
// protected files → read the verdict → count a DONE-triggered FAIL and reset the notes' status line.
import { assign } from 'xstate';
import { request, type EffectResult } from '../effects.js';
import { protectionNote } from '../protect/protection-note.js';
import { renderTemplate } from '../render-template.js';
import { afterCallRestore } from './after-call-restore.js';
import type { MachineEvent } from '../effect-events.js';
import { roleModel } from '../routing/role-model.js';
import { callProtectStates } from './call-protect-states.js';
import { gateStates } from './gate-states.js';
import { promptWithContext, protectParam } from './context-prompt.js';
import { storyParam } from './iteration-states.js';
import { interrupted, setbackStates, setbackTransitions } from './setback-states.js';
import { callLimits, protectsEveryCall, spendCall, type WorkContext } from './work-context.js';
import type { WorkLoopOptions } from './work-loop-options.js';
import { workSetup } from './work-setup.js';

/** `VERDICT: PASS|FAIL` on the verdict's first line; anything else is a judge failure. */
export function parseVerdict(result: EffectResult<'file.inspect'>, stampBefore: string | null = null): { verdict: 'PASS' | 'FAIL'; problem: string | null } {
  if (!result.exists) return { verdict: 'FAIL', problem: 'the judge wrote no .loop/verdict.md' };
  // An older verdict left on disk (spec 2.2 keeps it) is never taken for this judge's.
  if (stampBefore !== null && result.stamp === stampBefore) return { verdict: 'FAIL', problem: 'the judge did not write .loop/verdict.md (it is unchanged since before the judge ran)' };
  const match = /^VERDICT:\s*(PASS|FAIL)\s*$/.exec((result.firstLine ?? '').trim());
  if (!match) return { verdict: 'FAIL', problem: `the first line of .loop/verdict.md is not \`VERDICT: PASS\` or \`VERDICT: FAIL\` (it is ${JSON.stringify(result.firstLine ?? '')})` };
  return { verdict: match[1] as 'PASS' | 'FAIL', problem: null };
}

/** A judge call that did its work: its usage spent. */
function judgeCallDone({ context, event }: { context: WorkContext; event: MachineEvent }): Partial<WorkContext> {
  return event.type === 'AGENT_EXITED' ? { spent: spendCall(context, event.result) } : {};
}

/** The judge states of a judged loop; none when the loop is not judged. Each leads back to `settling`. */
export function judgeStates(o: WorkLoopOptions) {
  const S = workSetup.createStateConfig;
  return !o.judged ? {} : {
    ...gateStates('judge', 'stampingVerdict', false),
    stampingVerdict: S({
      entry: { type: 'request', params: () => request('file.inspect', { file: 'verdict.md' }) },
      on: { FILE_INSPECTED: { target: 'judging', actions: assign({ verdictStampBefore: ({ event }) => event.result.stamp }) } },
    }),
    judging: S({
      entry: {
        type: 'request',
        params: ({ context }) => request('agent.spawn', {
          role: 'judge',
          iteration: context.iteration,
          ...(o.terminal ? {} : { chunk: context.chunk }),
          agent: context.config.judgeAgent ?? context.config.agent,
          model: roleModel(context.config, 'judge', context.sequenceRouting === true),
          ...storyParam(o, context),
          prompt: promptWithContext(context, renderTemplate(context.judgePrompt ?? '', { iteration: context.iteration, loopDir: context.loopDir, ...o.promptValues?.(context) }) + protectionNote(context.protection, 'judge', protectsEveryCall(context))),
          ...callLimits(context.config, context.resumeSession),
          ...protectParam(context),
        }),
      },
      on: {
        AGENT_EXITED: [
          ...setbackTransitions('judge'),
          // spec 1.1: the judge's edit of a spec file is undone before its verdict is read (then the protect scan)
          { guard: 'restoresAfterCalls', target: 'restoringAfterJudge', actions: [assign(judgeCallDone), 'clearRateLimits'] },
          // DESIGN §16: the judge's changes to protected files are looked for (and undone) before its verdict is read.
          { guard: ({ context }) => protectsEveryCall(context), target: 'judgeProtecting', actions: [assign(judgeCallDone), 'clearRateLimits'] },
          { target: 'readingVerdict', actions: [assign(judgeCallDone), 'clearRateLimits'] },
        ],
        // A judge cut short is asked again, fresh: a verdict from a partial judgment is never read.
        AGENT_INTERRUPTED: { target: 'judgeGate', actions: assign(interrupted) },
      },
    }),
    ...setbackStates('judge', 'judgeGate'),
    restoringAfterJudge: afterCallRestore({ next: 'readingVerdict', protect: 'judgeProtecting', ...(o.editsOnResume === true ? { again: 'restoringAfterJudge' } : {}) }, 'held'),
    ...callProtectStates('judge', 'readingVerdict'),
    readingVerdict: S({
      entry: { type: 'request', params: () => request('file.inspect', { file: 'verdict.md' }) },
      on: {
        FILE_INSPECTED: {
          target: 'judged',
          actions: assign(({ context, event }) => {
            const { verdict, problem } = parseVerdict(event.result, context.verdictStampBefore);
            return { verdict, verdictProblem: problem, judgments: context.judgments + 1 };
          }),
        },
      },
    }),
    judged: S({
      always: [
        // Spec 2.4/2.5: only judgments triggered by DONE count; each FAIL resets the notes' status line.
        {
          guard: ({ context }) => context.judgeTrigger === 'done' && context.verdict === 'FAIL',
          target: 'resettingNotes',
          actions: assign({ consecutiveFailures: ({ context }) => context.consecutiveFailures + 1 }),
        },
        { guard: ({ context }) => context.verdict === 'PASS', target: 'settling', actions: assign({ consecutiveFailures: 0 }) },
        { target: 'settling' },
      ],
    }),
    resettingNotes: S({
      entry: { type: 'request', params: () => request('notes.reset', { file: 'notes.md', firstLine: 'STATUS: IN_PROGRESS' }) },
      on: { NOTES_RESET: 'settling' },
    }),
  };
}
