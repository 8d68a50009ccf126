// Each agent's normalizer is reached by name; qwen's memory file is its own.
import { describe, expect, it } from 'vitest';
import { normalizeToolCall } from '../../../policy/normalize/normalize-tool-call.js';
import { POLICY_AGENTS, isPolicyAgent } from '../../../policy/tool-act.js';

describe('normalizeToolCall', () => {
  it('has a normalizer per agent, and an unknown tool is unknown for every agent', () => {
    for (const agent of POLICY_AGENTS) expect(normalizeToolCall(agent, 'no_such_tool', {})[0]?.kind, agent).toBe('unknown');
  });
  it('gemini and qwen differ in where save_memory writes', () => {
    expect(normalizeToolCall('qwen', 'save_memory', {})).toEqual([{ kind: 'write', path: '~/.qwen/QWEN.md' }]);
    expect(normalizeToolCall('gemini', 'save_memory', {})).toEqual([{ kind: 'write', path: '~/.gemini/GEMINI.md' }]);
  });
  it('knows its agents by name', () => {
    expect(isPolicyAgent('codex')).toBe(true);
    expect(isPolicyAgent('cmd')).toBe(false);
  });
});
