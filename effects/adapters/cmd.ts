// The `cmd` agent adapter: any shell command; it may report usage by writing JSON to $YOKE_USAGE_FILE.
import type { AgentSpec } from '../../config/types.js';
import type { AgentInvocation } from './agent-invocation.js';
import type { OutputParser } from './agent-outcome.js';
import { describeExit } from './process-verdict.js';
import { TextTail } from './text-tail.js';

/** Run the configured command as is; the configured model, if any, is offered as `YOKE_MODEL`. */
export function cmdInvocation(agent: Extract<AgentSpec, { kind: 'cmd' }>, model: string | null): AgentInvocation {
  return { command: agent.command, env: model === null ? {} : { YOKE_MODEL: model } };
}

/**
 * A command has no output format to read: exit 0 is `ok`, anything else `crashed` (`exit 3`,
 * `killed by SIGTERM`, with its last stderr line). Its usage comes from $YOKE_USAGE_FILE, not from here.
 */
export function createCmdParser(): OutputParser {
  const stderr = new TextTail(2000);
  return {
    stdout: () => undefined,
    stderr: (chunk) => stderr.push(chunk),
    finish(end) {
      if (end.signal === null && end.exitCode === 0) return { usage: null, classification: 'ok', detail: null, retryAfterMs: null };
      const said = stderr.lastLine();
      return { usage: null, classification: 'crashed', detail: `${describeExit(end)}${said === null ? '' : `: ${said}`}`, retryAfterMs: null };
    },
  };
}
