// What `yoke gate` prints per CLI (formats checked on the installed CLIs, docs/tool-control.md):
// Claude's defer, and a hold as a denial saying the call is held where the CLI has no defer.
import { describe, expect, it } from 'vitest';
import { gateOutput, HELD_BY_DENIAL } from '../../cli/gate-output.js';

const printed = (stdout: string): unknown => JSON.parse(stdout);

describe('gateOutput', () => {
  it('claude: a hold in a run is defer, with the ruling\'s message', () => {
    expect(printed(gateOutput('claude', 'defer', 'held: x', true).stdout)).toEqual({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'defer', permissionDecisionReason: 'held: x' } });
  });

  it('codex, gemini and qwen: a hold in a run is a denial saying the call is held and how the run goes on', () => {
    expect(printed(gateOutput('codex', 'defer', 'held: x', true).stdout)).toEqual({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: `held: x ${HELD_BY_DENIAL}` } });
    expect(printed(gateOutput('gemini', 'defer', 'held: x', true).stdout)).toEqual({ decision: 'deny', reason: `held: x ${HELD_BY_DENIAL}` });
    expect(printed(gateOutput('qwen', 'defer', 'held: x', true).stdout)).toEqual({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: `held: x ${HELD_BY_DENIAL}` } });
  });

  it('qwen: allow in a run, nothing without one (its own permissions decide), ask without a run', () => {
    expect(printed(gateOutput('qwen', 'allow', 'passed', true).stdout)).toEqual({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', permissionDecisionReason: 'passed' } });
    expect(gateOutput('qwen', 'allow', 'passed', false).stdout).toBe('');
    expect(printed(gateOutput('qwen', 'ask', 'held: x', false).stdout)).toMatchObject({ hookSpecificOutput: { permissionDecision: 'ask', permissionDecisionReason: 'held: x' } });
  });

  it('a pass: codex prints nothing (it rejects "allow"), gemini allows in a run, nothing without one', () => {
    expect(gateOutput('codex', 'allow', 'passed', true).stdout).toBe('');
    expect(printed(gateOutput('gemini', 'allow', 'passed', true).stdout)).toEqual({ decision: 'allow' });
    expect(gateOutput('gemini', 'allow', 'passed', false).stdout).toBe('');
  });

  it('opencode (yoke\'s plugin): allow or deny with the reason; a hold and an ask (no one to ask) are denials', () => {
    expect(printed(gateOutput('opencode', 'allow', 'passed', true).stdout)).toEqual({ decision: 'allow' });
    expect(printed(gateOutput('opencode', 'allow', 'passed', false).stdout)).toEqual({ decision: 'allow' });
    expect(printed(gateOutput('opencode', 'defer', 'held: x', true).stdout)).toEqual({ decision: 'deny', reason: `held: x ${HELD_BY_DENIAL}` });
    expect(printed(gateOutput('opencode', 'ask', 'held: x', false).stdout)).toEqual({ decision: 'deny', reason: 'held: x' });
  });

  it('a refusal is a plain denial for every CLI', () => {
    expect(printed(gateOutput('gemini', 'deny', 'refused: x', true).stdout)).toEqual({ decision: 'deny', reason: 'refused: x' });
    expect((printed(gateOutput('codex', 'deny', 'refused: x', true).stdout) as { hookSpecificOutput: { permissionDecisionReason: string } }).hookSpecificOutput.permissionDecisionReason).toBe('refused: x');
  });
});
