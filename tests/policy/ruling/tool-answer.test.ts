// destructive and secret take call-scope answers only, and the refusal says how to make a standing rule.
import { describe, expect, it } from 'vitest';
import { TOOL_CLASSES } from '../../../config/types.js';
import { ANSWER_SCOPES, answerScopeProblem } from '../../../policy/ruling/tool-answer.js';

describe('answerScopeProblem', () => {
  it.each(TOOL_CLASSES.flatMap((toolClass) => ANSWER_SCOPES.map((scope) => [toolClass, scope] as const)))('%s at scope %s', (toolClass, scope) => {
    const refused = scope !== 'call' && (toolClass === 'destructive' || toolClass === 'secret');
    expect(answerScopeProblem(toolClass, scope) !== null).toBe(refused);
  });
  it('explains why and points at a tool row', () => {
    expect(answerScopeProblem('destructive', 'workspace')).toMatch(/^a destructive call takes --scope call only: .*`tool destructive pass`/);
  });
});
