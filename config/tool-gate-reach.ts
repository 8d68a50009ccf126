// Which agents yoke's tool-call gate reaches in a run (DESIGN §13). Claude Code, Codex, Gemini CLI and
// Qwen Code are wired through their own pre-tool hooks, OpenCode through a plugin yoke writes for the
// call. The table is compiler-checked, so a new adapter must say whether it is wired; one that is not
// would run its calls unruled with tool control on (or advisory), so yoke refuses that (fail closed),
// and `yoke config check` says so at the line, before a run does.
import { stripComment } from './strip-comment.js';
import { BUILT_IN_AGENT_KINDS, type AgentSpec, type Config, type ConfigIssue } from './types.js';

/** Whether the gate rules each built-in agent's tool calls in a run. */
const GATE_REACH: { readonly [K in (typeof BUILT_IN_AGENT_KINDS)[number]]: boolean } = { claude: true, codex: true, gemini: true, qwen: true, opencode: true };

/** The built-in agents whose tool calls the gate rules in a run. */
export const GATED_AGENT_KINDS: readonly string[] = BUILT_IN_AGENT_KINDS.filter((kind) => GATE_REACH[kind]);

/** The agent kinds a config may call (any role, any profile), once each. */
function calledAgentKinds(config: Pick<Config, 'agent' | 'judgeAgent' | 'scoperAgent' | 'profiles'>): string[] {
  const specs: AgentSpec[] = [config.agent, config.judgeAgent, config.scoperAgent, ...(config.profiles ?? []).map((profile) => profile.agent)].filter((spec): spec is AgentSpec => spec !== undefined);
  return [...new Set(specs.map((spec) => spec.kind))];
}

/** The built-in agents a config may call (any role, any profile) that the gate does not reach (not in `gated`), once each. */
export function ungatedAgents(config: Pick<Config, 'agent' | 'judgeAgent' | 'scoperAgent' | 'profiles'>, gated: readonly string[] = GATED_AGENT_KINDS): string[] {
  return calledAgentKinds(config).filter((kind) => kind !== 'cmd' && !gated.includes(kind));
}

/** The agents a config may call whose calls the gate rules (none with `tool-control off`), once each. */
export function gatedAgents(config: Pick<Config, 'agent' | 'judgeAgent' | 'scoperAgent' | 'profiles' | 'toolControl'>): string[] {
  return (config.toolControl ?? 'on') === 'off' ? [] : calledAgentKinds(config).filter((kind) => GATED_AGENT_KINDS.includes(kind));
}

/** Why the config cannot run as written (tool control on or advisory for an agent the gate does not reach), or null. */
export function ungatedAgentProblem(config: Pick<Config, 'agent' | 'judgeAgent' | 'scoperAgent' | 'profiles' | 'toolControl'>, gated: readonly string[] = GATED_AGENT_KINDS): { message: string; hint: string } | null {
  const setting = config.toolControl ?? 'on';
  if (setting === 'off') return null;
  const kinds = ungatedAgents(config, gated);
  if (kinds.length === 0) return null;
  const names = kinds.join(' and ');
  const others = gated.join(', ').replace(/, ([^,]*)$/, ' or $1');
  return {
    message: `tool-control is ${setting}, but yoke's tool-call gate does not rule ${names}'s tool calls in a run yet, so they would run unruled`,
    hint: `write \`tool-control off\` to run ${names} under ${kinds.length === 1 ? 'its' : 'their'} own permission rules, or use ${others}; see docs/tool-control.md`,
  };
}

/** The problem as a config issue at its line: the `tool-control` line, else the first line naming such an agent. */
export function ungatedAgentIssue(config: Config, text: string, file: string, gated: readonly string[] = GATED_AGENT_KINDS): ConfigIssue | null {
  const problem = ungatedAgentProblem(config, gated);
  if (problem === null) return null;
  const kinds = ungatedAgents(config, gated);
  const lines = text.split('\n').map((line) => stripComment(line).trim().split(/\s+/));
  const at = (test: (words: string[]) => boolean): number => lines.findIndex(test) + 1;
  const line = at((words) => words[0] === 'tool-control') || at((words) => ['agent', 'judge-agent', 'scoper-agent', 'profile'].includes(words[0] ?? '') && words.some((word) => kinds.includes(word))) || 1;
  return { file, line, column: 1, severity: 'error', ...problem };
}
