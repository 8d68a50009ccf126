// The fold of operator answers and revocations into the answers that stand now. Plain objects in,
// so the journal's records map onto it without this file knowing them.
import { answerScopeProblem, type ToolAnswer } from './tool-answer.js';

/** An answer given, or a standing answer ended (`yoke answer --revoke <id>`). */
export type AnswerEvent = { kind: 'answer'; answer: ToolAnswer } | { kind: 'revoke'; id: string };

/** What stands: answers to single calls by call id, and the run- and workspace-wide ones, oldest first. */
export interface StandingAnswers {
  byCall: ReadonlyMap<string, ToolAnswer>;
  standing: readonly ToolAnswer[];
}

/** No answers at all. */
export const NO_ANSWERS: StandingAnswers = { byCall: new Map(), standing: [] };

/**
 * Folds answer events, in journal order. A revoke ends the answer with that id; an answer whose
 * scope its class does not allow (a `run`-wide answer to a destructive call) stands for nothing,
 * since `yoke answer` refuses to give one and a tampered record must not widen it.
 * @example standingAnswers([{ kind: 'answer', answer }, { kind: 'revoke', id: answer.id }]).standing // []
 */
export function standingAnswers(events: readonly AnswerEvent[]): StandingAnswers {
  const byCall = new Map<string, ToolAnswer>();
  let standing: ToolAnswer[] = [];
  for (const event of events) {
    if (event.kind === 'revoke') {
      standing = standing.filter((answer) => answer.id !== event.id);
      for (const [callId, answer] of byCall) if (answer.id === event.id) byCall.delete(callId);
      continue;
    }
    const { answer } = event;
    if (answerScopeProblem(answer.class, answer.scope) !== null) continue;
    if (answer.scope === 'call') byCall.set(answer.callId, answer);
    else standing = [...standing, answer];
  }
  return { byCall, standing };
}
