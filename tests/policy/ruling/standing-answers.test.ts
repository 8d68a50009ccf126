// The fold: call answers by call id, standing answers in order, revocations, and no widened scopes.
import { describe, expect, it } from 'vitest';
import { standingAnswers } from '../../../policy/ruling/standing-answers.js';
import { makeAnswer } from './support.js';

describe('standingAnswers', () => {
  it('keeps call answers by call id and wider ones in order', () => {
    const call = makeAnswer({ id: 'a', scope: 'call' });
    const run = makeAnswer({ id: 'b', scope: 'run' });
    const workspace = makeAnswer({ id: 'c', scope: 'workspace' });
    const folded = standingAnswers([call, run, workspace].map((answer) => ({ kind: 'answer' as const, answer })));
    expect(folded.byCall.get('call-1')).toEqual(call);
    expect(folded.standing).toEqual([run, workspace]);
  });
  it('a revoke ends the answer with that id, of any scope', () => {
    const run = makeAnswer({ id: 'b', scope: 'run' });
    const call = makeAnswer({ id: 'a', scope: 'call' });
    const folded = standingAnswers([{ kind: 'answer', answer: run }, { kind: 'answer', answer: call }, { kind: 'revoke', id: 'b' }, { kind: 'revoke', id: 'a' }]);
    expect(folded.standing).toEqual([]);
    expect(folded.byCall.size).toBe(0);
  });
  it('an answer whose scope its class forbids stands for nothing', () => {
    const folded = standingAnswers([{ kind: 'answer', answer: makeAnswer({ class: 'destructive', scope: 'run' }) }, { kind: 'answer', answer: makeAnswer({ class: 'secret', scope: 'workspace' }) }]);
    expect(folded.standing).toEqual([]);
  });
  it('a revoke of an unknown id changes nothing', () => {
    const run = makeAnswer({ scope: 'run' });
    expect(standingAnswers([{ kind: 'answer', answer: run }, { kind: 'revoke', id: 'nope' }]).standing).toEqual([run]);
  });
});
