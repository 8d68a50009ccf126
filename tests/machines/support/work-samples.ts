// Sample events for the graph models of the judged lifecycles: one per outcome that can change what
// the machine does next, named for path listings.
import type { MachineEvent } from '../../../machines/effect-events.js';
import type { EffectResult } from '../../../machines/effects.js';
import { makeCheckResult } from './loop-driver.js';
import type { Sample } from './work-graph.js';

/** The first wall-clock reading of the budget samples. */
export const T0 = 1_750_000_000_000;

function agentExit(usage: EffectResult<'agent.spawn'>['usage']): MachineEvent {
  return { type: 'AGENT_EXITED', result: { outcome: 'exited', exitCode: 0, signal: null, durationMs: 10, usage, transcript: 't.log' } };
}

const inspected = (firstLine: string | null, exists = true): MachineEvent =>
  ({ type: 'FILE_INSPECTED', result: { exists, firstLine, blank: firstLine === null, stamp: null } });

/** Outcomes of the iteration effects every work loop has (restore, worker, notes, boundary, checks, report, commit). */
export const ITERATION_SAMPLES: Record<string, Sample> = {
  'BASELINE_CAPTURED': { event: { type: 'BASELINE_CAPTURED', result: { specFiles: { 'judge.md': 'sha-judge', 'protocol.md': null }, tree: 'tree-0' } } },
  'SPEC_RESTORED': { event: { type: 'SPEC_RESTORED', result: { restored: ['judge.md'], displaced: {} } } },
  'AGENT_EXITED': { event: agentExit(null) },
  'AGENT_INTERRUPTED': { event: { type: 'AGENT_INTERRUPTED', reason: 'SIGINT' } },
  'AGENT_EXITED(rate-limited)': { event: { type: 'AGENT_EXITED', result: { outcome: 'exited', exitCode: 1, signal: null, durationMs: 10, usage: null, transcript: 't.log', classification: 'rate-limited', retryAfterMs: null, endedAt: T0 } } },
  'AGENT_EXITED(auth-error)': { event: { type: 'AGENT_EXITED', result: { outcome: 'exited', exitCode: 1, signal: null, durationMs: 10, usage: null, transcript: 't.log', classification: 'auth-error', detail: 'HTTP 401', endedAt: T0 } } },
  // DESIGN §13: a call whose tool call the gate held (the run holds until it is answered)
  'AGENT_EXITED(tool-held)': { event: { type: 'AGENT_EXITED', result: { outcome: 'exited', exitCode: 0, signal: null, durationMs: 10, usage: null, transcript: 't.log', classification: 'tool-held', detail: '1 tool call(s) held for the operator (abcd1234)', toolHold: { id: 'abcd1234', session: 'session-1' }, endedAt: T0 } } },
  // DESIGN §13: a call whose CLI ran tool calls the gate never ruled on (the run holds for the operator)
  'AGENT_EXITED(tool-ungated)': { event: { type: 'AGENT_EXITED', result: { outcome: 'exited', exitCode: 0, signal: null, durationMs: 10, usage: null, transcript: 't.log', classification: 'tool-ungated', detail: "claude ran 1 tool call yoke's gate never ruled on (Bash rm -r keep)", toolCalls: [], endedAt: T0 } } },
  'WAITED': { event: { type: 'WAITED', result: { waitedMs: 30_000 } } },
  'AGENT_RETRY': { event: { type: 'AGENT_RETRY' } },
  'NOTES_READ(DONE)': { event: { type: 'NOTES_READ', result: { firstLine: 'STATUS: DONE' } } },
  'NOTES_READ(IN_PROGRESS)': { event: { type: 'NOTES_READ', result: { firstLine: 'STATUS: IN_PROGRESS' } } },
  'BOUNDARY_SCANNED(clean)': { event: { type: 'BOUNDARY_SCANNED', result: { changed: ['src/app.ts'] } } },
  'CHECK_FINISHED(pass)': { event: { type: 'CHECK_FINISHED', result: makeCheckResult(0, 'ok') } },
  'CHECK_FINISHED(fail)': { event: { type: 'CHECK_FINISHED', result: makeCheckResult(1, 'failed') } },
  'FILE_WRITTEN': { event: { type: 'FILE_WRITTEN', result: { sha256: 'f'.repeat(64) } } },
  'COMMITTED': { event: { type: 'COMMITTED', result: { sha: 'c0ffee' } } },
  // tried only as one-step extensions (the graph never explores them): the root handlers
  'SET_MAX_ITERATIONS(1)': { event: { type: 'SET_MAX_ITERATIONS', max: 1 }, when: () => false },
};

/** A goal acceptance check (the check engine) whose criterion `tests` passed, failed, or that could not run. */
export const ACCEPTANCE_SAMPLES: Record<string, Sample> = {
  'ACCEPTANCE_CHECKED(pass)': { event: { type: 'ACCEPTANCE_CHECKED', result: acceptanceResult(0, 'ok') } },
  'ACCEPTANCE_CHECKED(fail)': { event: { type: 'ACCEPTANCE_CHECKED', result: acceptanceResult(1, 'failed') } },
};

function acceptanceResult(exitCode: number, excerpt: string): EffectResult<'acceptance.check'> {
  const status = exitCode === 0 ? 'passed' : 'failed';
  return {
    outcome: 'completed', status, exitCode: exitCode === 0 ? 0 : 1, report: { path: 'proof/run/report.json', sha256: 'd'.repeat(64) },
    criteria: [{ name: 'tests', kind: 'command', status, exitCode, outcome: 'exited', durationMs: 10, excerpt }], failedArtifacts: [], sourceMatches: true,
  };
}

/** A boundary scan that breaks `no-modify vendor/`. */
export const VIOLATION_SAMPLE: Record<string, Sample> = {
  'BOUNDARY_SCANNED(violation)': { event: { type: 'BOUNDARY_SCANNED', result: { changed: ['src/app.ts', 'vendor/lib.js'] } } },
};

const atVerdict = (state: string): boolean => state.includes('readingVerdict');

/** What the judge can leave in verdict.md: PASS, FAIL, an invalid first line, nothing. */
export const VERDICT_SAMPLES: Record<string, Sample> = {
  'VERDICT(PASS)': { event: inspected('VERDICT: PASS'), when: atVerdict },
  'VERDICT(FAIL)': { event: inspected('VERDICT: FAIL'), when: atVerdict },
  'VERDICT(invalid)': { event: inspected('Verdict: looks good to me'), when: atVerdict },
  'VERDICT(missing)': { event: inspected(null, false), when: atVerdict },
  'NOTES_RESET': { event: { type: 'NOTES_RESET', result: { changed: true } } },
  // What verdict.md looked like just before the judge ran (its stamp tells a new verdict from an old one).
  'VERDICT_STAMP': {
    event: { type: 'FILE_INSPECTED', result: { exists: true, firstLine: 'VERDICT: PASS', blank: false, stamp: 'before' } },
    when: (state) => state.includes('stampingVerdict'),
  },
};

/** What the scoper can leave: saga-notes.md DONE or not, sub-plan.md blank or not; and the chunk's notes read for the log. */
export const SAGA_SAMPLES: Record<string, Sample> = {
  'SAGA_NOTES(DONE)': { event: inspected('STATUS: DONE'), when: (state) => state.includes('readingSagaNotes') },
  'SAGA_NOTES(IN_PROGRESS)': { event: inspected('STATUS: IN_PROGRESS'), when: (state) => state.includes('readingSagaNotes') },
  'SUB_PLAN(text)': { event: inspected('# Chunk: the parser'), when: (state) => state.includes('readingSubPlan') },
  'SUB_PLAN(blank)': { event: inspected(null), when: (state) => state.includes('readingSubPlan') },
  'FILE_READ(notes)': { event: { type: 'FILE_READ', result: { content: 'STATUS: DONE\nparser finished; tests pass\n' } } },
};

/** Budgets: a call reporting 60 tokens and $0.60, clock readings at T0 and two minutes later, raises. */
export const BUDGET_SAMPLES: Record<string, Sample> = {
  'AGENT_EXITED(60 tokens, $0.60)': { event: agentExit({ inputTokens: 40, outputTokens: 20, cacheReadTokens: null, cacheWriteTokens: null, costUsd: 0.6, model: 'm' }) },
  'CLOCK_READ(T0)': { event: { type: 'CLOCK_READ', result: { now: T0 } } },
  'CLOCK_READ(T0+2m)': { event: { type: 'CLOCK_READ', result: { now: T0 + 120_000 } } },
  'BUDGET_RAISED(tokens 55)': { event: { type: 'BUDGET_RAISED', dimension: 'tokens', value: 55 } },
  'BUDGET_RAISED(tokens 1000)': { event: { type: 'BUDGET_RAISED', dimension: 'tokens', value: 1000 } },
  'BUDGET_RAISED(wall-minutes 10)': { event: { type: 'BUDGET_RAISED', dimension: 'wall-minutes', value: 10 } },
  'BUDGET_RAISED(attempts 3)': { event: { type: 'BUDGET_RAISED', dimension: 'attempts', value: 3 } },
};

/**
 * Agent setbacks the executed paths (tests/model/) produce with a real `cmd` agent: a rate limit
 * whose API asks for a 1 ms wait, so the real `wait.until` stays tiny (the call ends at T0).
 */
export const SETBACK_SAMPLES: Record<string, Sample> = {
  'AGENT_EXITED(rate-limited, retry 1 ms)': { event: { type: 'AGENT_EXITED', result: { outcome: 'exited', exitCode: 1, signal: null, durationMs: 10, usage: null, transcript: 't.log', classification: 'rate-limited', retryAfterMs: 1, endedAt: T0 } } },
};

/** A protection baseline of one test file (DESIGN §16): the input of the protected graph models. */
export const PROTECTED_FILE = { path: 'tests/a.test.js', mode: 0o100644, sha256: 'a'.repeat(64) };

/** What the protected-file scan can find (the baseline as it was, or the test edited), the restore, an overruled judge's verdict, and a refresh mid-run. */
export const PROTECT_SAMPLES: Record<string, Sample> = {
  'PROTECT_SCANNED(clean)': { event: { type: 'PROTECT_SCANNED', result: { files: [PROTECTED_FILE] } } },
  'PROTECT_SCANNED(edited)': { event: { type: 'PROTECT_SCANNED', result: { files: [{ ...PROTECTED_FILE, sha256: 'b'.repeat(64) }] } } },
  'PROTECT_RESTORED': { event: { type: 'PROTECT_RESTORED', result: { restored: [PROTECTED_FILE.path] } } },
  // an overruled judge's own verdict, read so yoke's FAIL keeps it quoted
  'FILE_READ(overruled verdict)': { event: { type: 'FILE_READ', result: { content: 'VERDICT: PASS\nthe tests pass now\n' } }, when: (state) => state.includes('readingOverruled') },
  // tried only as a one-step extension (the graph never explores it): the root handler
  'PROTECTION_REFRESHED': {
    event: { type: 'PROTECTION_REFRESHED', protection: { patterns: ['tests/'], files: [], digest: 'd'.repeat(64) } },
    when: () => false,
  },
};
/** The plain outcome of each iteration effect (no setbacks, no failing check): what a model about something else needs. */
export const PLAIN_ITERATION_SAMPLES: Record<string, Sample> = Object.fromEntries(Object.entries(ITERATION_SAMPLES).filter(([name]) =>
  ['BASELINE_CAPTURED', 'SPEC_RESTORED', 'AGENT_EXITED', 'NOTES_READ(DONE)', 'NOTES_READ(IN_PROGRESS)', 'BOUNDARY_SCANNED(clean)', 'CHECK_FINISHED(pass)', 'FILE_WRITTEN', 'COMMITTED'].includes(name)));

/** The context layer (DESIGN §9): the clock that dates a decision entry, and the notes and plan it is made from. */
export const CONTEXT_SAMPLES: Record<string, Sample> = {
  'CLOCK_READ(T0)': { event: { type: 'CLOCK_READ', result: { now: T0 } } },
  // `.yoke/context/` read ahead of every agent call: what a folder without files gives (no block)
  'CONTEXT_READ': { event: { type: 'CONTEXT_READ', result: { block: '', files: [{ name: 'PROJECT.md', bytes: null, injected: 0 }, { name: 'DECISIONS.md', bytes: null, injected: 0 }, { name: 'KNOWLEDGE.md', bytes: null, injected: 0 }], guard: { 'PROJECT.md': null, 'DECISIONS.md': null } } } },
  'FILE_READ(decision)': {
    event: { type: 'FILE_READ', result: { content: '# Greeting endpoint\nDecision: answer in plain text\n' } },
    when: (state) => state.includes('decision'),
  },
};

/** The input of a run whose project has `.yoke/context/` (a journaled fact of run.started). */
export const CONTEXT_RUN = '01JCONTEXT7Q4Z3H8K2M5N6P9R';
