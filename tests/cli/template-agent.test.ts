// The agent block of the shipped yoke.conf templates, rewritten for the agent `yoke init` or
// `yoke mode` chose; read back from a workspace's conf.
import { describe, expect, it } from 'vitest';
import { modeTemplates } from '../../cli/canon.js';
import { agentLinesIn, templateWithAgent } from '../../cli/template-agent.js';
import { parseConfig } from '../../config/parse-config.js';
import { BUILT_IN_AGENT_KINDS } from '../../config/types.js';
import { LIFECYCLE_REGISTRY } from '../../machines/lifecycles/registry.js';

const MODES = LIFECYCLE_REGISTRY.map((lifecycle) => lifecycle.name);

const template = (mode: string): string => modeTemplates(mode)?.files['yoke.conf']?.toString('utf8') ?? '';
const agentBlock = (conf: string): string[] => conf.split('\n').filter((line) => /^(# )?(agent|model) /.test(line));

describe('templateWithAgent', () => {
  it('makes the chosen built-in the active line and keeps the others as commented alternatives, in preference order', () => {
    expect(agentBlock(templateWithAgent(template('loop'), { agent: 'agent opencode', model: null }))).toEqual([
      'agent opencode', '# agent claude', '# agent codex', '# agent gemini', '# agent qwen', '# agent cmd my-agent --non-interactive', '# model <name>',
    ]);
  });

  it('leaves the shipped template as it is for claude, the default', () => {
    for (const mode of MODES) expect(templateWithAgent(template(mode), { agent: 'agent claude', model: null })).toBe(template(mode));
  });

  it('keeps a workspace\'s `agent cmd` line and its model, every built-in then commented', () => {
    const conf = templateWithAgent(template('brute'), { agent: 'agent cmd ./my-agent.sh --fast', model: 'model opus' });
    expect(agentBlock(conf)).toEqual([
      'agent cmd ./my-agent.sh --fast', '# agent claude', '# agent codex', '# agent gemini', '# agent opencode', '# agent qwen',
      '# agent cmd my-agent --non-interactive', 'model opus',
    ]);
    expect(parseConfig(conf, 'yoke.conf', LIFECYCLE_REGISTRY).config).toMatchObject({ agent: { kind: 'cmd', command: './my-agent.sh --fast' }, model: 'opus' });
  });

  it.each(MODES)('%s: the template written for every built-in parses without a single issue', (mode) => {
    for (const kind of BUILT_IN_AGENT_KINDS) {
      const { config, issues } = parseConfig(templateWithAgent(template(mode), { agent: `agent ${kind}`, model: null }), 'yoke.conf', LIFECYCLE_REGISTRY);
      expect(issues).toEqual([]);
      expect(config?.agent).toEqual({ kind });
    }
  });

  it('returns a template without an agent line unchanged', () => {
    expect(templateWithAgent('mode loop\n', { agent: 'agent codex', model: 'model x' })).toBe('mode loop\n');
  });
});

describe('agentLinesIn', () => {
  it('reads the first agent and model directives, without their comments', () => {
    expect(agentLinesIn('mode loop\n# agent claude\nagent codex   # mine\n# model <name>\nmodel gpt-5.5\n')).toEqual({ agent: 'agent codex', model: 'model gpt-5.5' });
    expect(agentLinesIn('mode loop\nagent cmd ./a.sh "x # y"\n')).toEqual({ agent: 'agent cmd ./a.sh "x # y"', model: null });
  });

  it('is null for a conf without a usable agent line', () => {
    expect(agentLinesIn('')).toBeNull();
    expect(agentLinesIn('mode loop\n# agent claude\n')).toBeNull();
    expect(agentLinesIn('mode loop\nagent\n')).toBeNull();
  });
});
