// An operator's answer to a held call, and how far it stands (the seed's judgment vocabulary, with
// yoke's scopes: the call, the run, or the workspace).
import type { ToolClass } from '../../config/types.js';

/** How far an answer stands, narrowest first: this call; its tool at its class for the run; the same for every later run. */
export const ANSWER_SCOPES = ['call', 'run', 'workspace'] as const;
export type AnswerScope = (typeof ANSWER_SCOPES)[number];

/** One answer, as plain data (the journal's record type maps onto it). */
export interface ToolAnswer {
  /** The answer's id (what `yoke answer --revoke` names). */
  id: string;
  /** The held call it answered (the CLI's tool-use id). */
  callId: string;
  /** The run it was given in. */
  runId: string;
  /** The held call's tool and class: what a standing answer matches. */
  tool: string;
  class: ToolClass;
  ruling: 'pass' | 'refuse';
  scope: AnswerScope;
}

/** The classes the shipped table refuses outright and that an operator must decide call by call. */
const CALL_ONLY: readonly ToolClass[] = ['destructive', 'secret'];

/**
 * Why `scope` cannot stand over a call of `toolClass`, or null when it can. `destructive` and
 * `secret` take `call` only: an answer to one overrides the strictest thing the policy says, so it
 * is a decision about the call in front of the operator, never about calls to come.
 * @example answerScopeProblem('secret', 'run') // 'a secret call takes --scope call only: …'
 */
export function answerScopeProblem(toolClass: ToolClass, scope: AnswerScope): string | null {
  if (scope === 'call' || !CALL_ONLY.includes(toolClass)) return null;
  return `a ${toolClass} call takes --scope call only: ${toolClass} is what the tool policy refuses outright, so it is answered `
    + 'for the call in front of you and never for calls to come. To make it standing anyway, add a '
    + `\`tool ${toolClass} pass\` (or \`hold\`) row to .loop/yoke.conf, where it is read and can be deleted.`;
}
