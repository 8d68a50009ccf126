// `agent.spawn`: run one worker/judge/scoper agent call in its own process group (DESIGN §4).
import { mkdir, rm } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { EffectContext, EffectHandler } from '../handler.js';
import type { EffectResult, ExecutedToolCall } from '../../machines/effects.js';
import { GATED_AGENT_KINDS } from '../../config/tool-gate-reach.js';
import { restoreContextFiles, type ContextRestore } from '../context/restore-context-files.js';
import { CONTEXT_DIR } from '../../machines/context/context-files.js';
import { agentCall, finishAgentCall } from '../adapters/agent-adapter.js';
import { runInProcessGroup } from '../process/process-group.js';
import { safeKey } from '../fs/safe-key.js';
import { openTranscript } from '../process/transcript.js';
import { processVerdict } from '../adapters/process-verdict.js';
import { readAgentReport } from '../adapters/usage-file.js';
import { journalEntry } from '../../config/workspace-layout.js';
import { combineSecrets, redactSecrets, secretValues } from '../process/redact-secrets.js';
import { childEnvironment } from '../process/child-environment.js';
import { GATE_SOCKET_ENV } from '../gate/gate-protocol.js';
import { prepareGeminiGateHome } from '../gate/gemini-gate-home.js';
import { prepareOpencodeGatePlugin } from '../gate/opencode-gate-plugin.js';
import { prepareQwenGateSettings } from '../gate/qwen-gate-settings.js';

import { hooksOffMessage, hooksTurnedOff } from '../gate/hooks-turned-off.js';

/**
 * Start the agent with cwd = project root, the prompt on stdin (then closed), YOKE_* variables in
 * its environment (the store's credentials withheld) and its pid + start time recorded at once; stream its output live and into a
 * new transcript while its adapter parses it; kill the whole group after `idleTimeoutMs` without
 * output, after `timeoutMs` in total, or on abort. The result carries the usage the CLI reported
 * (for `cmd`: $YOKE_USAGE_FILE) and the adapter's classification, its detail redacted of the values
 * of secret-looking environment variables and `redact` ones. Never re-executed after a crash
 * (`surface`): the machine hears it was interrupted.
 */
export const spawnAgent: EffectHandler<'agent.spawn'> = {
  policy: 'surface',
  async execute(params, ctx) {
    // Tool-call control: the built-in agents whose CLI yoke wires to the run's gate (DESIGN §13):
    // Claude Code (PreToolUse via --settings), Codex (PreToolUse via -c), Gemini CLI (BeforeTool in a
    // private GEMINI_CLI_HOME), Qwen Code (PreToolUse in a private QWEN_CODE_SYSTEM_SETTINGS_PATH),
    // OpenCode (a private plugin's tool.execute.before, loaded by OPENCODE_CONFIG_CONTENT).
    const gated = ctx.toolGate !== undefined && GATED_AGENT_KINDS.includes(params.agent.kind) ? ctx.toolGate : null;
    // A CLI whose settings switch its hooks off (changed since `yoke run` checked them) is not started.
    const hooksOff = gated === null ? null : hooksTurnedOff(params.agent.kind, ctx.root, process.env);
    const hookCommand = gated === null || hooksOff !== null ? null : gated.command(params.agent.kind);
    const geminiHome = hookCommand !== null && params.agent.kind === 'gemini' ? await prepareGeminiGateHome(hookCommand, process.env) : null;
    if (geminiHome?.warning != null) ctx.warn(geminiHome.warning);
    const privateHook = hookCommand === null ? null
      : params.agent.kind === 'qwen' ? await prepareQwenGateSettings(hookCommand, process.env)
        : params.agent.kind === 'opencode' ? await prepareOpencodeGatePlugin(hookCommand, process.env) : null;
    if (privateHook?.warning != null) ctx.warn(privateHook.warning);
    const gate = hookCommand === null ? null : { command: hookCommand, resume: params.resume ?? null, home: geminiHome?.dir ?? null, settingsEnv: privateHook?.env ?? null };
    const { invocation, parser } = agentCall(params.agent, params.model, gate);
    const timeoutMs = params.timeoutMs ?? 0;
    const loopDir = resolve(ctx.loopDir);
    const key = safeKey(ctx.key);
    const usageFile = join(journalEntry(loopDir, 'usage'), `${key}.json`);
    await mkdir(dirname(usageFile), { recursive: true });
    await rm(usageFile, { force: true }); // only what this call writes may count as its usage
    const transcript = await openTranscript(
      loopDir,
      `${params.iteration}-${params.role}-${key}`,
      `# yoke ${params.role} agent, iteration ${params.iteration}, call ${ctx.key}: ${invocation.command}`,
    );
    if (hooksOff !== null) {
      const detail = hooksOffMessage(hooksOff, params.agent.kind, 'on or advisory');
      transcript.write(`# yoke did not start the agent: ${detail}\n`);
      await transcript.close();
      return notStarted(detail, transcript.relativePath);
    }
    const env = {
      ...childEnvironment(),
      ...invocation.env,
      YOKE_ROLE: params.role,
      YOKE_RUN: ctx.run,
      YOKE_ITERATION: String(params.iteration),
      YOKE_CALL: ctx.key,
      YOKE_LOOP_DIR: loopDir,
      YOKE_USAGE_FILE: usageFile,
      ...(gated === null ? {} : { [GATE_SOCKET_ENV]: gated.socketPath }),
    };
    let run;
    let contextRestored: ContextRestore | null = null;
    try {
      run = await runInProcessGroup({
        command: invocation.command,
        cwd: ctx.root,
        env,
        // A resumed session goes on where it stopped (the held call first): no new prompt.
        stdin: gate?.resume == null ? params.prompt : '',
        onStdout(chunk) {
          ctx.output.stdout(chunk);
          transcript.write(chunk);
          parser.stdout(chunk);
        },
        onStderr(chunk) {
          ctx.output.stderr(chunk);
          transcript.write(chunk);
          parser.stderr(chunk);
        },
        idleTimeoutMs: params.idleTimeoutMs,
        timeoutMs,
        signal: ctx.signal,
        effect: 'agent.spawn',
        // processes the agent starts outside its group (setsid) are stopped with it
        contain: 'auto',
        onSpawn(pid, startTime) {
          ctx.recordProcess({ pid, startTime });
        },
      });
      if (run.error !== null) transcript.write(`# yoke could not start the agent: ${run.error}\n`);
    } finally {
      await geminiHome?.cleanup();
      await privateHook?.cleanup();
      const failure = await transcript.close();
      if (failure) ctx.warn(`could not write transcript .loop/${transcript.relativePath}: ${failure.message}`);
      // DESIGN §9: PROJECT.md and DECISIONS.md are yoke's during a run, also when the call was cut short.
      if (params.protect !== undefined) contextRestored = await putContextBack(params.protect, ctx);
    }
    const endedAt = Date.now();
    const limits = { idleTimeoutMs: params.idleTimeoutMs, timeoutMs };
    let outcome = finishAgentCall(parser, run, limits);
    let usage = outcome.usage;
    if (params.agent.kind === 'cmd') {
      // A command reports through $YOKE_USAGE_FILE: its usage, and maybe how its call ended
      // (a wrapper around a CLI that hit a rate limit); yoke's own timeouts and signals still win.
      const report = await readAgentReport(usageFile, (message) => ctx.warn(message));
      usage = report.usage;
      if (report.outcome !== null && processVerdict(run, limits) === null) outcome = { ...outcome, ...report.outcome };
    }
    // Claude's `defer` ends the call at the hold, so that hold pauses the run even when answered meanwhile
    // (the answer resumes its session); Codex and Gemini went on, and a hold answered live needs no pause.
    const held = gated?.heldInCall(params.agent.kind === 'claude') ?? [];
    const toolHold = held[0] === undefined ? undefined : { id: held[0], session: params.agent.kind === 'claude' ? parser.session?.() ?? null : null };
    if (toolHold !== undefined && processVerdict(run, limits) === null) {
      outcome = { ...outcome, classification: 'tool-held', detail: `${held.length} tool call(s) held for the operator (${held.join(', ')})`, retryAfterMs: null };
    }
    // DESIGN §13: every call the CLI ran must have a ruling that let it through; one without holds the run.
    const executed = gated === null ? undefined : parser.toolCalls?.();
    const unruled = executed === undefined || gated === null ? [] : gated.unruled(executed);
    if (unruled.length > 0) {
      outcome = { ...outcome, classification: 'tool-ungated', detail: unruledDetail(params.agent.kind, unruled), retryAfterMs: null };
      ctx.warn(outcome.detail ?? '');
    }
    return {
      outcome: run.outcome,
      exitCode: run.exitCode,
      signal: run.signal,
      durationMs: run.durationMs,
      usage,
      transcript: transcript.relativePath,
      classification: outcome.classification,
      // The transcript keeps the raw bytes (it stays on disk); what is journaled is redacted.
      detail: outcome.detail === null ? null : redactSecrets(outcome.detail, combineSecrets(secretValues(env, params.redact), ctx.secrets ?? [])),
      retryAfterMs: outcome.retryAfterMs,
      endedAt,
      ...(executed === undefined ? {} : { toolCalls: executed }),
      ...(toolHold === undefined || outcome.classification !== 'tool-held' ? {} : { toolHold }),
      ...(contextRestored === null ? {} : { contextRestored }),
    };
  },
};

/** The result of a call yoke did not start (its CLI would not ask the gate): the run holds on it. */
function notStarted(detail: string, transcript: string): EffectResult<'agent.spawn'> {
  return {
    outcome: 'spawn-failed', exitCode: null, signal: null, durationMs: 0, usage: null, transcript, classification: 'tool-ungated',
    detail: `it was not started: ${detail}`, retryAfterMs: null, endedAt: Date.now(), toolCalls: [],
  };
}

/** `claude ran 2 tool calls yoke's gate never ruled on: Bash rm -r keep, Write a.txt`: at most three named. */
function unruledDetail(agent: string, calls: readonly ExecutedToolCall[]): string {
  const named = calls.slice(0, 3).map((call) => call.summary).join('; ');
  const more = calls.length > 3 ? `; and ${calls.length - 3} more` : '';
  return `${agent} ran ${calls.length === 1 ? '1 tool call' : `${calls.length} tool calls`} yoke's gate never ruled on (${named}${more}): its hooks did not ask the gate`;
}

/** Restore the protected context files; says so on stderr, and returns what was done (null when nothing changed). */
async function putContextBack(protect: Readonly<Record<string, string | null>>, ctx: EffectContext): Promise<ContextRestore | null> {
  const result = await restoreContextFiles(ctx.root, ctx.loopDir, protect);
  if (result.restored.length === 0) return null;
  const names = result.restored.map((name) => `${CONTEXT_DIR}/${name}`).join(', ');
  ctx.warn(`the agent changed ${names}, which yoke holds during a run; put back as it was. Edit these files between runs, or put learnings into ${CONTEXT_DIR}/KNOWLEDGE.md.`);
  return result;
}
