// Which agent plays a role: `judge-agent` / `scoper-agent` when set, else the worker's `agent`.
import type { AgentRole } from './lifecycle-catalog.js';
import type { AgentSpec, Config } from './types.js';

/** The agent the config names for `role`. */
export function agentForRole(config: Config, role: AgentRole): AgentSpec {
  switch (role) {
    case 'worker':
      return config.agent;
    case 'judge':
      return config.judgeAgent ?? config.agent;
    case 'scoper':
      return config.scoperAgent ?? config.agent;
  }
}
