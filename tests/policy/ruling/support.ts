// Builders for the ruling tests.
import type { ToolClass } from '../../../config/types.js';
import type { Classification } from '../../../policy/classification.js';
import { bySeverity } from '../../../policy/tool-class-severity.js';
import type { AnswerScope, ToolAnswer } from '../../../policy/ruling/tool-answer.js';

/** A classification with these classes (most severe first) and one reason. */
export function classified(...classes: ToolClass[]): Classification {
  const sorted = [...classes].sort(bySeverity);
  return { class: sorted[0] ?? 'read', classes: sorted, paths: [], reasons: ['`rm -r` deletes keep'] };
}

/** An answer, by default a pass for Bash network calls of run-1, answering call-1. */
export function makeAnswer(overrides: Partial<ToolAnswer> & { scope: AnswerScope }): ToolAnswer {
  return { id: 'answer-1', callId: 'call-1', runId: 'run-1', tool: 'Bash', class: 'network', ruling: 'pass', ...overrides };
}

/** The call being ruled on. */
export const CALL = { callId: 'call-9', runId: 'run-1', tool: 'Bash' };
