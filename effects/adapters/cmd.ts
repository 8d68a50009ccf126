// The `cmd` agent adapter: any shell command; it may report usage by writing JSON to $YOKE_USAGE_FILE.
import type { AgentSpec } from '../../config/types.js';
import type { AgentInvocation } from './agent-invocation.js';

/** Run the configured command as is; the configured model, if any, is offered as `YOKE_MODEL`. */
export function cmdInvocation(agent: Extract<AgentSpec, { kind: 'cmd' }>, model: string | null): AgentInvocation {
  return { command: agent.command, env: model === null ? {} : { YOKE_MODEL: model } };
}
