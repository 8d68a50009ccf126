// A ruling's sentence names the class and what the decision covers, so a rephrasing is seen as covered.
import { describe, expect, it } from 'vitest';
import { rulingMessage, rulingReach } from '../../../policy/ruling/ruling-message.js';

describe('rulingMessage', () => {
  it('a refusal by the table covers every call of the tool at that class in the run, and says so', () => {
    const message = rulingMessage('refuse', 'Bash', 'destructive', { kind: 'table' }, '`rm -r` deletes keep');
    expect(message).toBe("refused: every Bash call classified destructive in this run is refused by yoke's tool policy (the shipped rule for destructive calls). "
      + 'This call is destructive: `rm -r` deletes keep. Doing the same another way (another command, other quoting, a script or an interpreter) '
      + 'is classified destructive too and refused the same; do not retry it in another form.');
  });
  it('a hold says who decides', () => {
    expect(rulingMessage('hold', 'Bash', 'network', { kind: 'table' }, '`curl` reaches the network')).toMatch(/^held: every Bash call classified network in this run is held by yoke's tool policy .* runs only if they answer pass\.$/);
  });
  it('an answer names its id and scope', () => {
    expect(rulingMessage('refuse', 'Write', 'protected', { kind: 'answer', id: 'h7', scope: 'workspace' }, 'x'))
      .toMatch(/^refused: every Write call classified protected in this workspace is refused by the operator \(answer h7, scope workspace\)/);
  });
  it('the reach of each source', () => {
    expect(rulingReach('Bash', 'network', { kind: 'answer', id: 'a', scope: 'call' })).toBe('this one call');
    expect(rulingReach('Bash', 'network', { kind: 'answer', id: 'a', scope: 'run' })).toBe('every Bash call classified network in this run');
    expect(rulingReach('Bash', 'network', { kind: 'conf', line: 1 })).toBe('every Bash call classified network in this run');
  });
});
