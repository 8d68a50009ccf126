// DESIGN §13, fail closed: an agent the tool-call gate does not reach, with tool control on or
// advisory, is refused with its line and what to do. Every built-in adapter is wired today, so the
// refusal is shown with a gate that reaches all but opencode (as an unwired adapter would stand).
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../config/parse-config.js';
import { GATED_AGENT_KINDS, ungatedAgentIssue, ungatedAgentProblem } from '../../config/tool-gate-reach.js';
import { BUILT_IN_AGENT_KINDS, type Config } from '../../config/types.js';
import { LIFECYCLE_REGISTRY } from '../../machines/lifecycles/registry.js';

const FILE = '.loop/yoke.conf';
const withoutOpencode = GATED_AGENT_KINDS.filter((kind) => kind !== 'opencode');

function config(lines: string[]): { config: Config; text: string } {
  const text = `${['mode loop', ...lines].join('\n')}\n`;
  const parsed = parseConfig(text, FILE, LIFECYCLE_REGISTRY);
  if (parsed.config === null) throw new Error(JSON.stringify(parsed.issues));
  return { config: parsed.config, text };
}

describe('the tool-call gate\'s reach', () => {
  it('reaches every built-in agent: no config of built-in agents is refused', () => {
    expect([...GATED_AGENT_KINDS].sort()).toEqual([...BUILT_IN_AGENT_KINDS].sort());
    for (const kind of BUILT_IN_AGENT_KINDS) expect(ungatedAgentProblem(config([`agent ${kind}`]).config), kind).toBeNull();
  });

  it.each([
    [['agent opencode'], 2, 'on'],
    [['agent claude', 'tool-control advisory', 'judge-agent opencode'], 3, 'advisory'],
    [['profile cheap tier light opencode', 'profile dear tier strong claude', 'agent dear'], 2, 'on'],
  ])('an agent it does not reach, %j: an error at the tool-control line, else the line naming the agent, saying what to do', (lines, line, setting) => {
    const { config: parsed, text } = config(lines);
    const issue = ungatedAgentIssue(parsed, text, FILE, withoutOpencode);
    expect(issue).toMatchObject({ file: FILE, line, severity: 'error', message: `tool-control is ${setting}, but yoke's tool-call gate does not rule opencode's tool calls in a run yet, so they would run unruled` });
    expect(issue?.hint).toBe('write `tool-control off` to run opencode under its own permission rules, or use claude, codex, gemini or qwen; see docs/tool-control.md');
  });

  it('with `tool-control off` nothing is refused', () => {
    expect(ungatedAgentProblem(config(['agent opencode', 'tool-control off']).config, withoutOpencode)).toBeNull();
  });
});
