import { describe, expect, it } from 'vitest';
import { cmdInvocation } from '../../../effects/adapters/cmd.js';

describe('cmdInvocation', () => {
  it('runs the configured command as is and offers the model as YOKE_MODEL', () => {
    expect(cmdInvocation({ kind: 'cmd', command: './agent.sh --fast' }, null)).toEqual({ command: './agent.sh --fast', env: {} });
    expect(cmdInvocation({ kind: 'cmd', command: 'a' }, 'm')).toEqual({ command: 'a', env: { YOKE_MODEL: 'm' } });
  });
});
