import { describe, expect, it } from 'vitest';
import { cmdInvocation, createCmdParser } from '../../../effects/adapters/cmd.js';
import { exited, feed } from './support/feed-parser.js';

describe('cmdInvocation', () => {
  it('runs the configured command as is and offers the model as YOKE_MODEL', () => {
    expect(cmdInvocation({ kind: 'cmd', command: './agent.sh --fast' }, null)).toEqual({ command: './agent.sh --fast', env: {} });
    expect(cmdInvocation({ kind: 'cmd', command: 'a' }, 'm')).toEqual({ command: 'a', env: { YOKE_MODEL: 'm' } });
  });
});

describe('cmd classification', () => {
  it('exit 0 is ok whatever it printed', () => {
    expect(feed(createCmdParser(), { stdout: '{"type":"result","is_error":true}\n', stderr: 'API Error: 500\n' }, exited(0)))
      .toEqual({ usage: null, classification: 'ok', detail: null, retryAfterMs: null });
  });

  it('any other exit is crashed, naming the exit code and the last stderr line', () => {
    expect(feed(createCmdParser(), { stderr: 'working\nfatal: no such model\n\n' }, exited(3)))
      .toEqual({ usage: null, classification: 'crashed', detail: 'exit 3: fatal: no such model', retryAfterMs: null });
    expect(feed(createCmdParser(), {}, exited(1)).detail).toBe('exit 1');
  });

  it('death by a signal is crashed', () => {
    expect(createCmdParser().finish({ outcome: 'exited', exitCode: null, signal: 'SIGSEGV', error: null }))
      .toMatchObject({ classification: 'crashed', detail: 'killed by SIGSEGV' });
  });
});
