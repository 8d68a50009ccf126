// What `yoke gate` prints for each CLI, in the format that CLI's hook reads (checked on the
// installed CLIs; docs/tool-control.md has the details):
// - Claude Code 2.1.332 PreToolUse: `hookSpecificOutput.permissionDecision` allow | deny | ask |
//   defer with `permissionDecisionReason`; `defer` in `-p` ends the call with
//   `stop_reason: "tool_deferred"` and `claude -p --resume <session>` asks the hook again.
// - Codex 0.171 PreToolUse: only `permissionDecision: "deny"` (with a non-empty reason) is
//   supported; "allow" and "ask" are rejected as unsupported, so a pass prints nothing.
// - Gemini CLI 0.61 BeforeTool: `{"decision": "allow" | "deny" | "ask", "reason": …}`.
// - Qwen Code 0.24.4 PreToolUse: Claude's `hookSpecificOutput.permissionDecision` allow | deny | ask
//   with `permissionDecisionReason` (no `defer`); the reason of a denial is the tool's error.
// - OpenCode 1.18.33 has no hook command: yoke's own plugin (effects/gate/opencode-gate-plugin.ts)
//   reads `{"decision": "allow" | "deny", "reason": …}` and throws, with the reason, on anything but allow.

/** The CLIs whose hooks `yoke gate` speaks. */
export const GATE_AGENTS = ['claude', 'codex', 'gemini', 'qwen', 'opencode'] as const;
export type GateAgent = (typeof GATE_AGENTS)[number];

/** What the gate tells the CLI. */
export type GateDecision = 'allow' | 'deny' | 'ask' | 'defer';

/** What a CLI without `defer` is told about a held call, after the ruling's own sentence. */
export const HELD_BY_DENIAL = 'So it did not run now: yoke pauses the run when this turn ends, and once the operator has answered, '
  + 'the next attempt may make the same call again and it is ruled by that answer. Do not make it another way; go on with the rest, or end your turn.';

/** The bytes to print and the exit code. */
export interface GateOutput {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/**
 * The CLI's decision output. Where the CLI has no `defer` (Codex, Gemini, Qwen, OpenCode) or no `ask`
 * (Codex), a hold is a denial whose reason says the call is held for the operator. A pass without a
 * run leaves the decision to the CLI's own permission settings (an `allow` would skip them); yoke's
 * OpenCode plugin lets a call run only on an explicit allow, which OpenCode's own rules still follow.
 */
export function gateOutput(agent: GateAgent, decision: GateDecision, given: string, inRun: boolean): GateOutput {
  const json = (value: unknown): GateOutput => ({ stdout: `${JSON.stringify(value)}\n`, stderr: '', exitCode: 0 });
  const message = decision === 'defer' && agent !== 'claude' ? `${given} ${HELD_BY_DENIAL}` : given;
  switch (agent) {
    case 'claude':
      if (decision === 'allow' && !inRun) return { stdout: '', stderr: '', exitCode: 0 };
      return json({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: decision, permissionDecisionReason: message } });
    case 'codex':
      if (decision === 'allow') return { stdout: '', stderr: '', exitCode: 0 };
      return json({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: message } });
    case 'gemini':
      if (decision === 'allow') return inRun ? json({ decision: 'allow' }) : { stdout: '', stderr: '', exitCode: 0 };
      if (decision === 'ask') return json({ decision: 'ask', reason: message });
      return json({ decision: 'deny', reason: message });
    case 'qwen':
      if (decision === 'allow' && !inRun) return { stdout: '', stderr: '', exitCode: 0 };
      return json({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: decision === 'defer' ? 'deny' : decision, permissionDecisionReason: message } });
    case 'opencode':
      // the plugin cannot prompt anyone: an `ask` (no run) is a denial too
      return json(decision === 'allow' ? { decision: 'allow' } : { decision: 'deny', reason: message });
  }
}
