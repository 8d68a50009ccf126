// Writing the workspace's agent into a mode's yoke.conf template, and reading it back from a conf.
import { BUILT_IN_AGENT_KINDS } from '../config/types.js';
import { stripComment } from '../config/strip-comment.js';
import { GATED_AGENT_KINDS } from '../config/tool-gate-reach.js';

/** The lines of a conf that choose the worker agent: `agent …` and, when set, `model …`. */
export interface AgentLines {
  /** the whole directive, e.g. `agent codex` or `agent cmd ./my-agent.sh` */
  agent: string;
  /** e.g. `model gpt-5.5`, or null when the conf sets none */
  model: string | null;
}

const BUILT_IN_LINE = new RegExp(`^(?:# )?agent (?:${BUILT_IN_AGENT_KINDS.join('|')})$`);

/** The directive a line holds (its comment cut, trimmed), when its first word is `name`. */
function directive(line: string, name: string): string | null {
  const text = stripComment(line).trim();
  return text.split(/\s+/)[0] === name ? text : null;
}

/** The first `agent` and `model` directives of a conf's text, or null when it has no `agent` line. */
export function agentLinesIn(conf: string): AgentLines | null {
  const lines = conf.split('\n');
  const agent = lines.map((line) => directive(line, 'agent')).find((text) => text !== null);
  if (agent === undefined || agent === null || agent.split(/\s+/).length < 2) return null;
  const model = lines.map((line) => directive(line, 'model')).find((text) => text !== null) ?? null;
  return { agent, model: model !== null && model.split(/\s+/).length >= 2 ? model : null };
}

/**
 * `template` with its agent block rewritten for `choice`: the template's active `agent` line and
 * the commented built-in alternatives after it become `choice.agent` followed by every other
 * built-in as a comment, in preference order; a `model` replaces the `# model <name>` line. The
 * rest of the template is untouched. A template without an `agent` line is returned as it is. For
 * a built-in agent the tool-call gate does not reach (none today), `tool-control off` follows,
 * with a comment saying why: the strongest setting that agent supports, so a first run never stops.
 * @example templateWithAgent('agent claude\n# agent codex\n', { agent: 'agent codex', model: null }) // 'agent codex\n# agent claude\n'
 */
export function templateWithAgent(template: string, choice: AgentLines): string {
  const lines = template.split('\n');
  const start = lines.findIndex((line) => directive(line, 'agent') !== null);
  if (start === -1) return template;
  let end = start + 1;
  while (end < lines.length && BUILT_IN_LINE.test(lines[end] ?? '')) end += 1;
  const others = BUILT_IN_AGENT_KINDS.map((kind) => `agent ${kind}`).filter((line) => line !== choice.agent).map((line) => `# ${line}`);
  const block = [choice.agent, ...others];
  const rest = lines.slice(end);
  if (choice.model !== null) {
    const placeholder = rest.findIndex((line) => /^# model <name>$/.test(line));
    if (placeholder === -1) block.push(choice.model);
    else rest[placeholder] = choice.model;
  }
  const kind = choice.agent.split(/\s+/)[1] ?? '';
  const setsToolControl = lines.some((line) => directive(line, 'tool-control') !== null);
  if ((BUILT_IN_AGENT_KINDS as readonly string[]).includes(kind) && !GATED_AGENT_KINDS.includes(kind) && !setsToolControl) {
    block.push(`# yoke's tool-call gate does not rule ${kind}'s tool calls yet: ${kind}'s own permission rules apply (docs/tool-control.md)`, 'tool-control off');
  }
  return [...lines.slice(0, start), ...block, ...rest].join('\n');
}
