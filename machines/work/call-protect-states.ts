// The protect scan after a judge's or a scoper's call (DESIGN §16): like the worker's, any change
// to a protected file is put back from the baseline before anything else runs. A judge that changed
// one is overruled: its verdict is a FAIL whatever it wrote, and verdict.md says why.
import { assign, enqueueActions } from 'xstate';
import { request } from '../effects.js';
import { driftLine, protectionDrift, restorePlan, type Drift } from '../protect/protection-drift.js';
import { patternCovers } from '../protect/protect-pattern.js';
import type { WorkContext } from './work-context.js';
import { workSetup } from './work-setup.js';

/** Why a judge's verdict does not count: the protected files it changed, in one sentence. */
export function judgeProtectProblem(drift: readonly Drift[]): string {
  const paths = drift.map((entry) => `\`${entry.path}\` (${entry.kind})`).join(', ');
  return `the judge changed protected files (acceptance infrastructure): ${paths}; yoke restored them and does not count its verdict`;
}

/**
 * What yoke writes to verdict.md over an overruled judge's: `VERDICT: FAIL`, what the judge changed
 * and that it was restored (the judge's versions kept as blobs), then the judge's own text, quoted
 * so it is never read as a verdict.
 */
export function overruledVerdict(drift: readonly Drift[], patterns: readonly string[], judgeText: string | null): string {
  const lines = [
    'VERDICT: FAIL',
    '',
    'yoke overruled this judgment: the judge changed protected files, the tests and checks that decide "done" (acceptance infrastructure).',
    'A judge may never change them, so its verdict does not count. yoke restored them from the protection baseline:',
    '',
  ];
  for (const entry of drift) {
    const rule = patterns.find((pattern) => patternCovers(pattern, entry.path));
    const kept = entry.after === undefined ? '' : ` (the judge's version is kept as blob ${entry.after.sha256.slice(0, 12)})`;
    lines.push(`- ${driftLine(entry)}${rule === undefined ? '' : `, protected by \`protect ${rule}\``}${kept}; restored`);
  }
  lines.push('', 'The work is judged again after your next attempt.');
  const text = (judgeText ?? '').trimEnd();
  if (text !== '') lines.push('', 'The judge\'s own verdict, not counted:', '', ...text.split('\n').map((line) => (line === '' ? '>' : `> ${line}`)));
  return `${lines.join('\n')}\n`;
}

function driftOf(context: WorkContext, files: Parameters<typeof protectionDrift>[1]): Drift[] {
  return protectionDrift(context.protection?.files ?? [], files);
}

/**
 * `<role>Protecting` (scan) → `<role>Unprotecting` (restore) when something drifted, else `next`.
 * The scoper goes on to `next` after the restore; the judge is overruled (`readingOverruled` →
 * `overrulingVerdict` → `judged`), a FAIL whatever it wrote.
 */
export function callProtectStates(role: 'judge' | 'scoper', next: string) {
  const S = workSetup.createStateConfig;
  const states = {
    [`${role}Protecting`]: S({
      entry: { type: 'request', params: ({ context }) => request('protect.scan', { patterns: context.protection?.patterns ?? [] }) },
      on: {
        PROTECT_SCANNED: [
          {
            guard: ({ context, event }) => driftOf(context, event.result.files).length > 0,
            target: `${role}Unprotecting`,
            actions: assign(({ context, event }) => {
              const drift = driftOf(context, event.result.files);
              return { protectRestore: restorePlan(drift), ...(role === 'judge' ? { judgeDrift: drift, verdictProblem: judgeProtectProblem(drift) } : {}) };
            }),
          },
          { target: next },
        ],
      },
    }),
    [`${role}Unprotecting`]: S({
      entry: { type: 'request', params: ({ context }) => request('protect.restore', context.protectRestore ?? { write: [], remove: [] }) },
      on: { PROTECT_RESTORED: { target: role === 'judge' ? 'readingOverruled' : next, actions: assign({ protectRestore: null }) } },
    }),
  };
  if (role !== 'judge') return states;
  return {
    ...states,
    // The judge's own text is read (a journaled fact) so verdict.md keeps it, quoted, under yoke's FAIL.
    readingOverruled: S({
      entry: { type: 'request', params: () => request('file.read', { file: 'verdict.md' }) },
      on: {
        FILE_READ: {
          target: 'overrulingVerdict',
          actions: enqueueActions(({ context, event, enqueue }) => {
            enqueue.assign({ verdict: 'FAIL', judgments: context.judgments + 1 });
            enqueue({ type: 'request', params: request('file.write', { file: 'verdict.md', content: overruledVerdict(context.judgeDrift ?? [], context.protection?.patterns ?? [], event.result.content) }) });
          }),
        },
      },
    }),
    overrulingVerdict: S({
      on: { FILE_WRITTEN: { target: 'judged', actions: assign({ judgeDrift: null }) } },
    }),
  };
}
