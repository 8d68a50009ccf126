// The policy: table, conf rows, each answer scope, the strictest class ruling, and what each covers.
import { describe, expect, it } from 'vitest';
import { TOOL_CLASSES } from '../../../config/types.js';
import { ruleToolCall } from '../../../policy/ruling/rule-tool-call.js';
import { SHIPPED_TABLE } from '../../../policy/ruling/shipped-table.js';
import { NO_ANSWERS, standingAnswers } from '../../../policy/ruling/standing-answers.js';
import type { ToolAnswer } from '../../../policy/ruling/tool-answer.js';
import { classifyToolCall } from '../../../policy/classify-tool-call.js';
import { SCOPE } from '../support.js';
import { CALL, classified, makeAnswer } from './support.js';

const answers = (...list: ToolAnswer[]) => standingAnswers(list.map((answer) => ({ kind: 'answer' as const, answer })));

describe('ruleToolCall', () => {
  it.each(TOOL_CLASSES)('the shipped table rules %s', (toolClass) => {
    const ruling = ruleToolCall(CALL, classified(toolClass), undefined, NO_ANSWERS);
    expect(ruling).toMatchObject({ ruling: SHIPPED_TABLE[toolClass], class: toolClass, source: { kind: 'table' } });
  });

  it('a tool row overrides its class and names its line', () => {
    const ruling = ruleToolCall(CALL, classified('network'), { network: { ruling: 'pass', line: 7 } }, NO_ANSWERS);
    expect(ruling).toMatchObject({ ruling: 'pass', source: { kind: 'conf', line: 7 } });
    expect(ruling.message).toContain('`tool network pass` on line 7 of .loop/yoke.conf');
    expect(ruleToolCall(CALL, classified('exec'), { exec: { ruling: 'hold', line: 3 } }, NO_ANSWERS).ruling).toBe('hold');
  });

  it('an answer to this call decides it whole, even a destructive one', () => {
    const answer = makeAnswer({ id: 'a1', callId: CALL.callId, class: 'destructive', scope: 'call' });
    const ruling = ruleToolCall(CALL, classified('destructive', 'network'), undefined, answers(answer));
    expect(ruling).toMatchObject({ ruling: 'pass', class: 'destructive', source: { kind: 'answer', id: 'a1', scope: 'call' } });
    expect(ruling.message).toMatch(/^passed: this one call is passed by the operator \(answer a1, scope call\)/);
  });

  it('a call answer for another call does not apply', () => {
    const answer = makeAnswer({ callId: 'other', scope: 'call' });
    expect(ruleToolCall(CALL, classified('network'), undefined, answers(answer)).ruling).toBe('hold');
  });

  it('a call answer belongs to its run: the same call id in another run (ids derived from content recur) is ruled afresh', () => {
    const answer = makeAnswer({ callId: CALL.callId, runId: 'another-run', scope: 'call' });
    expect(ruleToolCall(CALL, classified('network'), undefined, answers(answer)).ruling).toBe('hold');
  });

  it('a run answer stands for the same tool at the same class in the same run only', () => {
    const run = makeAnswer({ id: 'r1', scope: 'run' });
    expect(ruleToolCall(CALL, classified('network'), undefined, answers(run))).toMatchObject({ ruling: 'pass', source: { kind: 'answer', id: 'r1', scope: 'run' } });
    expect(ruleToolCall({ ...CALL, runId: 'run-2' }, classified('network'), undefined, answers(run)).ruling).toBe('hold');
    expect(ruleToolCall({ ...CALL, tool: 'WebFetch' }, classified('network'), undefined, answers(run)).ruling).toBe('hold');
    expect(ruleToolCall(CALL, classified('protected'), undefined, answers(run)).ruling).toBe('refuse');
  });

  it('a workspace answer stands in every run; a run answer is consulted first; the latest wins', () => {
    const workspace = makeAnswer({ id: 'w1', scope: 'workspace', ruling: 'refuse' });
    expect(ruleToolCall({ ...CALL, runId: 'run-7' }, classified('network'), undefined, answers(workspace))).toMatchObject({ ruling: 'refuse', source: { scope: 'workspace' } });
    const run = makeAnswer({ id: 'r1', scope: 'run', ruling: 'pass' });
    expect(ruleToolCall(CALL, classified('network'), undefined, answers(run, workspace)).source).toEqual({ kind: 'answer', id: 'r1', scope: 'run' });
    const later = makeAnswer({ id: 'r2', scope: 'run', ruling: 'refuse' });
    expect(ruleToolCall(CALL, classified('network'), undefined, answers(run, later)).ruling).toBe('refuse');
  });

  it('an answer beats a tool row for its class', () => {
    const run = makeAnswer({ scope: 'run', ruling: 'pass' });
    expect(ruleToolCall(CALL, classified('network'), { network: { ruling: 'refuse', line: 2 } }, answers(run)).ruling).toBe('pass');
  });

  it('destructive and secret answers never stand beyond their call', () => {
    for (const toolClass of ['destructive', 'secret'] as const) {
      const wide = makeAnswer({ class: toolClass, scope: 'run' });
      expect(ruleToolCall(CALL, classified(toolClass), undefined, answers(wide)).ruling).toBe('refuse');
      const workspace = makeAnswer({ class: toolClass, scope: 'workspace' });
      expect(ruleToolCall(CALL, classified(toolClass), undefined, answers(workspace)).ruling).toBe('refuse');
    }
  });

  it('the strictest ruling of the call\'s classes wins: a protected pass row cannot pass its network part when network is refused', () => {
    const rows = { protected: { ruling: 'pass' as const, line: 4 }, network: { ruling: 'refuse' as const, line: 5 } };
    const ruling = ruleToolCall(CALL, classified('protected', 'network'), rows, NO_ANSWERS);
    expect(ruling).toMatchObject({ ruling: 'refuse', class: 'network', source: { kind: 'conf', line: 5 } });
    expect(ruling.message).toContain('This call is network: it is also network');
  });

  it('among equal rulings the most severe class decides', () => {
    expect(ruleToolCall(CALL, classified('protected', 'destructive'), undefined, NO_ANSWERS).class).toBe('destructive');
  });

  it('a standing answer for one class leaves the others to their rulings', () => {
    const run = makeAnswer({ scope: 'run', class: 'network' });
    expect(ruleToolCall(CALL, classified('network', 'exec'), undefined, answers(run)).ruling).toBe('pass');
    expect(ruleToolCall(CALL, classified('network', 'protected'), undefined, answers(run)).ruling).toBe('refuse');
  });
});

describe('classify, then rule', () => {
  it('`cd keep && rm -f -- *` is refused as destructive, in words that cover `rm -rf keep` too', () => {
    const classification = classifyToolCall({ agent: 'claude', tool: 'Bash', input: { command: 'cd keep && rm -f -- *' } }, SCOPE);
    const ruling = ruleToolCall(CALL, classification, undefined, NO_ANSWERS);
    expect(ruling.ruling).toBe('refuse');
    expect(ruling.message).toMatch(/^refused: every Bash call classified destructive in this run is refused by yoke's tool policy/);
    expect(ruling.message).toContain('`rm` deletes every file matching keep/*');
  });
  it('curl to loopback is held; a run answer lets the next one pass', () => {
    const classification = classifyToolCall({ agent: 'codex', tool: 'Bash', input: { command: 'curl http://127.0.0.1:8080' } }, SCOPE);
    expect(ruleToolCall(CALL, classification, undefined, NO_ANSWERS).ruling).toBe('hold');
    const run = makeAnswer({ scope: 'run', class: classification.class });
    expect(ruleToolCall(CALL, classification, undefined, answers(run)).ruling).toBe('pass');
  });
});
