// The pause message of a parallel run held in several lanes (cli/budget-hold.ts): a line per lane, its own remedy.
import { describe, expect, it } from 'vitest';
import { describeHeldLanes } from '../../cli/budget-hold.js';

describe('describeHeldLanes', () => {
  it('a lane that cannot authenticate, one whose calls went around the gate and two sharing a hold id each get their own line and remedy, the shared id said to answer both', () => {
    const text = describeHeldLanes('R1', [
      { story: 'S1', reason: 'tool-held', detail: '2 tool call(s) held for the operator (aaaa1111, bbbb2222)', holds: ['aaaa1111', 'bbbb2222'] },
      { story: 'S2', reason: 'auth-error', detail: 'HTTP 401: invalid x-api-key', holds: [] },
      { story: 'S3', reason: 'tool-ungated', detail: '1 tool call ran without a ruling', holds: [] },
      { story: 'S4', reason: 'tool-held', detail: '1 tool call(s) held for the operator (bbbb2222)', holds: ['bbbb2222'] },
    ]);
    expect(text.split('\n')).toEqual([
      'run R1 is held in 4 lanes:',
      "  story S1: its worker's tool calls aaaa1111, bbbb2222 wait for the operator; answer with `yoke answer aaaa1111 pass|refuse` and `yoke answer bbbb2222 pass|refuse`",
      "  story S2: its worker could not authenticate (HTTP 401: invalid x-api-key); fix the agent's credentials (API key or login)",
      "  story S3: its worker's tool calls went around yoke's gate (1 tool call ran without a ruling); look at what those calls changed and make sure nothing in the CLI's settings switches its hooks off (docs/tool-control.md)",
      "  story S4: its worker's tool call bbbb2222 waits for the operator; answer with `yoke answer bbbb2222 pass|refuse` (the same call as story S1's: one answer answers both)",
      'then run `yoke run` again: every held lane goes on, and one whose call is still unanswered calls again and holds again (answer them all first to spend no call; see `yoke holds`).',
    ]);
  });
});
