// The scripted world: a shell agent and a shell check command whose next move the test writes into
// the side folder right before the runner executes the effect (the agent's cwd and the check's cwd
// are the project root, so `../side` is the side folder of whichever copy of the world runs).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { shq } from '../../support/shell-agent.js';
import type { EffectResult } from '../../../machines/effects.js';
import { UNTOUCHED, type AgentAction, type WorldStep } from './world-plan.js';
import type { ModelWorld } from './model-world.js';

/** The agent: logs the call, swallows the prompt, runs `next-<role>.sh`. */
export const AGENT_SCRIPT = `#!/bin/sh
SIDE="$PWD/../side"
ROLE="\${YOKE_ROLE:-worker}"
cat > /dev/null
echo "$ROLE $YOKE_ITERATION $YOKE_CALL" >> "$SIDE/calls.log"
. "$SIDE/next-$ROLE.sh"
exit 0
`;

/** A guard, periodic, guard-after or accept command: prints `check-<name>.out`, exits with `check-<name>.code`. */
export const CHECK_SCRIPT = `#!/bin/sh
SIDE="$PWD/../side"
echo "$1" >> "$SIDE/checks.log"
cat "$SIDE/check-$1.out"
exit "$(cat "$SIDE/check-$1.code")"
`;

/** The yoke.conf command that runs the scripted check `name`. */
export const checkCommand = (name: string): string => `sh ../side/check.sh ${name}`;
/** The yoke.conf agent command of the scripted agent. */
export const AGENT_COMMAND = 'sh ../side/agent.sh';

/** Project paths a worker may touch (a sample's `changed` list names some of them); each with its content at the start. */
const TOUCHABLE: Record<string, string | null> = { 'src/app.ts': 'export const call = "none";\n', 'vendor/lib.js': null };

/** notes.md as the worker writes it: the status line, then a body naming the call. */
export const notesBody = 'notes of call';

function workerScript(action: AgentAction, planFile: string | null): string[] {
  const lines: string[] = [];
  if (action.notes === null || action.notes === undefined) lines.push('rm -f .loop/notes.md');
  else if (action.notesText !== undefined) lines.push(`printf '%s' ${shq(action.notesText)} > .loop/notes.md`);
  else lines.push(`printf '%s\\n%s %s\\n' ${shq(action.notes)} ${shq(notesBody)} "$YOKE_CALL" > .loop/notes.md`);
  // spec 1.1: the worker overwrites spec files; yoke restores them before the next iteration
  lines.push(`printf 'scribbled by %s\\n' "$YOKE_CALL" > .loop/protocol.md`);
  if (planFile) lines.push(`printf 'scribbled by %s\\n' "$YOKE_CALL" > .loop/${planFile}`);
  const changed = new Set(action.changed ?? []);
  for (const [path, original] of Object.entries(TOUCHABLE)) {
    lines.push(`mkdir -p "$(dirname ${shq(path)})"`);
    if (changed.has(path)) lines.push(`printf 'export const call = "%s";\\n' "$YOKE_CALL" > ${shq(path)}`);
    else if (original === null) lines.push(`rm -f ${shq(path)}`);
    else lines.push(`printf '%s' ${shq(original)} > ${shq(path)}`);
  }
  for (const path of changed) if (!(path in TOUCHABLE)) throw new Error(`the scripted worker cannot change ${path}; add it to TOUCHABLE`);
  return lines;
}

/** Outcomes a `cmd` agent may report about its own call (effects/adapters/usage-file.ts); the rest are yoke's to decide. */
const REPORTABLE = new Set(['ok', 'auth-error', 'server-error', 'rate-limited', 'permission-denied', 'max-turns', 'crashed']);

/** The call reports that it could not do its work (a rate limit, an authentication failure…): it leaves the workspace alone. */
export const reportsSetback = (exit: EffectResult<'agent.spawn'>): boolean => exit.classification !== undefined && exit.classification !== 'ok';

/** What the agent writes to $YOKE_USAGE_FILE: its usage, and the outcome of its call when the sample names a setback. */
function usageJson(action: AgentAction): string | null {
  const { usage, classification, detail, retryAfterMs } = action.exit;
  const fields: Record<string, unknown> = usage === null ? {} : {
    input_tokens: usage.inputTokens, output_tokens: usage.outputTokens, cache_read_tokens: usage.cacheReadTokens,
    cache_write_tokens: usage.cacheWriteTokens, cost_usd: usage.costUsd, model: usage.model,
  };
  if (reportsSetback(action.exit)) {
    if (!REPORTABLE.has(classification ?? '')) throw new Error(`a cmd agent cannot report the outcome ${String(classification)}; yoke decides it`);
    Object.assign(fields, { outcome: classification, detail, retry_after_seconds: retryAfterMs === null || retryAfterMs === undefined ? null : retryAfterMs / 1000 });
  }
  const said = Object.entries(fields).filter(([, v]) => v !== null && v !== undefined);
  return usage === null && said.length === 0 ? null : JSON.stringify(Object.fromEntries(said));
}

/** The shell of one agent call. */
export function agentStep(action: AgentAction, planFile: string | null): string {
  const lines: string[] = [];
  switch (reportsSetback(action.exit) ? null : action.role) {
    case null:
      lines.push(': could not work, and says why in the usage file');
      break;
    case 'worker':
      lines.push(...workerScript(action, planFile));
      break;
    case 'judge':
      if (action.verdict === UNTOUCHED) lines.push(': judges without writing a verdict');
      else if (action.verdict === null || action.verdict === undefined) lines.push('rm -f .loop/verdict.md');
      else lines.push(`printf '%s\\n%s\\n' ${shq(action.verdict)} 'reasons of the judge' > .loop/verdict.md`);
      break;
    case 'scoper':
      lines.push(`printf '%s\\n%s\\n' ${shq(action.sagaNotes ?? '')} 'scoper notes' > .loop/saga-notes.md`);
      lines.push(action.subPlan === null || action.subPlan === undefined ? `printf '\\n' > .loop/sub-plan.md` : `printf '%s\\n\\nDo it.\\n' ${shq(action.subPlan)} > .loop/sub-plan.md`);
      break;
  }
  const usage = usageJson(action);
  if (usage !== null) lines.push(`printf '%s' ${shq(usage)} > "$YOKE_USAGE_FILE"`);
  // the agent goes quiet until yoke's idle timeout kills its process group
  if (action.exit.outcome === 'idle-timeout') lines.push('sleep 30');
  lines.push(`exit ${action.exit.exitCode ?? 0}`);
  return `${lines.join('\n')}\n`;
}

/**
 * Make the world ready to produce `step`: written before the runner executes the effect. (For an
 * interruption the agent hangs; the executor interrupts the run once the agent's pid is journaled.)
 */
export function prepareStep(world: ModelWorld, step: WorldStep, planFile: string | null): void {
  switch (step.kind) {
    case 'agent':
      writeFileSync(join(world.side, `next-${step.action.role}.sh`), agentStep(step.action, planFile));
      return;
    case 'interrupt':
      writeFileSync(join(world.side, `next-${step.role}.sh`), 'sleep 30\n');
      return;
    case 'check':
      writeFileSync(join(world.side, `check-${step.name}.out`), step.excerpt);
      writeFileSync(join(world.side, `check-${step.name}.code`), String(step.exitCode));
      return;
    case 'acceptance':
      for (const criterion of step.criteria) {
        writeFileSync(join(world.side, `check-${criterion.name}.out`), criterion.excerpt);
        writeFileSync(join(world.side, `check-${criterion.name}.code`), String(criterion.exitCode));
      }
      return;
    case 'clock':
    case 'effect':
    case 'external':
    case 'prd-edit':
    case 'resume':
      return;
  }
}
