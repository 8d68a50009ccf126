// Matching the tool calls a CLI ran against the gate's rulings of the same agent call: a call with
// no ruling that let it through (a pass, or anything under advisory) is unruled.
import { describe, expect, it } from 'vitest';
import type { ExecutedToolCall } from '../../../machines/effects.js';
import { unruledCalls, type CallRuling } from '../../../policy/gate/unruled-calls.js';
import type { ToolScope } from '../../../policy/tool-scope.js';

const scope: ToolScope = { root: '/p', cwd: '/p', allow: [], noModify: [], protect: [], specFiles: [] };
const ruling = (over: Partial<CallRuling>): CallRuling => ({ agent: 'claude', callId: 't1', tool: 'Bash', input: { command: 'ls' }, scope, letThrough: true, ...over });
const byId = (callId: string): ExecutedToolCall => ({ tool: 'Bash', match: { by: 'callId', callId }, summary: `Bash ${callId}` });
const byCommand = (command: string): ExecutedToolCall => ({ tool: 'Bash', match: { by: 'command', command }, summary: `Bash ${command}` });

describe('executed tool calls against the rulings of their agent call', () => {
  it('a call passed by its key is ruled; one the gate refused, or never saw, is not', () => {
    const rulings = [ruling({ callId: 't1' }), ruling({ callId: 't2', letThrough: false })];
    expect(unruledCalls([byId('t1'), byId('t2'), byId('t3')], rulings).map((call) => call.summary)).toEqual(['Bash t2', 'Bash t3']);
  });

  it('each execution takes one ruling: the same call run twice on one pass is once unruled', () => {
    const rulings = [ruling({ agent: 'codex', callId: 'call-x', input: { command: 'ls keep' } })];
    expect(unruledCalls([byCommand('ls keep'), byCommand('ls keep')], rulings)).toHaveLength(1);
  });

  it('a codex command matches a passed request by its text; a patch by every file it changed', () => {
    const patch = ruling({ agent: 'codex', callId: 'call-p', tool: 'apply_patch', input: { command: '*** Begin Patch\n*** Add File: src/a.txt\n+x\n*** End Patch\n' } });
    const shell = ruling({ agent: 'codex', callId: 'call-s', tool: 'Bash', input: { command: 'rm -r keep' }, letThrough: false });
    const wrote = (...paths: string[]): ExecutedToolCall => ({ tool: 'apply_patch', match: { by: 'paths', paths }, summary: 'apply_patch' });
    expect(unruledCalls([wrote('/p/src/a.txt')], [patch])).toEqual([]);
    expect(unruledCalls([wrote('/p/src/a.txt', '/p/src/b.txt')], [patch])).toHaveLength(1);
    expect(unruledCalls([byCommand('rm -r keep')], [shell, patch])).toHaveLength(1);
  });
});
