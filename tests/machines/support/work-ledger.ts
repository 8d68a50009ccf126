// The bookkeeper for the judged lifecycles (brute, and each chunk of a saga): an oracle that never
// reads the machine's context. It follows one replayed path from the requests the machine emits
// and the events fed back, keeps its own account of iterations, judgments, chunks and spending,
// and names the spec invariant every wrong step breaks (spec §2, §4, budgets).
//
// Consecutive FAILs are counted as the machine documents them (DESIGN §2): only judgments triggered
// by DONE add to the count, an invalid or missing verdict is a FAIL, and a PASS of either kind ends
// the streak.
import { initialTransition, transition, type AnyMachineSnapshot, type AnyStateMachine } from 'xstate';
import type { Config } from '../../../config/types.js';
import { COMPLETION_EVENT, type MachineEvent } from '../../../machines/effect-events.js';
import { effectSchemas, type EffectRequest } from '../../../machines/effects.js';
import { protectionDrift } from '../../../machines/protect/protection-drift.js';
import { protectionNote } from '../../../machines/protect/protection-note.js';
import { renderTemplate } from '../../../machines/render-template.js';
import { utcDate } from '../../../machines/context/decision-entry.js';
import type { WorkInput } from '../../../machines/work/work-context.js';
import { admissionProblem, bookEvent, isSetback, bookRequests, breachFor, describeBook, heldRole, openBook, type BudgetBook } from './budget-book.js';
import { requestsOf } from './loop-driver.js';
import { replayAll } from './replay-paths.js';

export const INVARIANT = {
  await: 'one outstanding request at a time; none while held by a budget or after the end',
  schema: 'every request’s params pass its zod schema',
  admit: 'budgets: an agent.spawn is never requested while a ceiling is breached',
  held: 'budgets: the run is held only when the next call would break a ceiling',
  raise: 'budgets: BUDGET_RAISED leaves the hold for a call only when the breach is gone, and then always',
  iterations: 'iterations count 1, 2, … (per chunk); a worker call is re-made only after an interruption',
  judge: '2.1 the judge is a fresh call with only the judge prompt, after a reported iteration whose worker said DONE with passing checks (or on the judge-every cadence)',
  cadence: 'judge-every K: every Kth iteration without a boundary violation is judged (as feedback, if not for DONE)',
  files: '2.2/2.3 yoke never writes verdict.md or notes.md; it writes only guard-results.md (and saga-log.md)',
  reset: '2.4 only the first line of notes.md is reset, exactly after a DONE-triggered verdict that is not PASS, before the next worker call',
  bailout: '2.5 the run (chunk) bails out exactly at the Nth consecutive DONE-triggered FAIL',
  doneJudged: '2.6 DONE with passing checks is always judged before the next worker call or the end',
  pass: 'a DONE-triggered valid PASS ends the run (chunk) with success, and nothing else does',
  cap: 'max-iterations ends the run (chunk) only at the cap',
  sagaDone: '4.1 the saga ends with success exactly when saga-notes.md (not notes.md) says STATUS: DONE',
  rescope: '4.2 a chunk that passes, bails out or hits its cap returns control to the scoper',
  subPlan: '4.3 a blank sub-plan.md aborts the saga (exit 1) before any worker call',
  sagaLog: '4.4/4.5 after each chunk its notes are appended to saga-log.md under `## Chunk N`, before the next scoper call',
  chunks: 'max-chunks: at most max-chunks chunks, and the cap ends the saga only there',
  setback: 'a rate-limited agent call is made again after a wait; one that could not authenticate, or whose tool call the gate held, holds the run until AGENT_RETRY',
  decision: 'DESIGN §9 a commit carries a DECISIONS.md entry exactly when the layer exists and the run (chunk) passed, dated by a clock read for it, after reading the notes and the plan',
  protect: 'DESIGN §16 a protected run scans its protected files after every worker call (and, with protectAll, every judge and scoper call) before anything else; a judge that changed one is overruled: its verdict is a FAIL, and only then does yoke write verdict.md',
} as const;
type InvariantName = keyof typeof INVARIANT;

interface CheckFact {
  kind: string;
  name: string;
  passed: boolean;
}

/** What the oracle knows about the iteration in progress. */
interface IterationFacts {
  iteration: number;
  /** notes.md's first line as read after the worker call (undefined: not read yet) */
  notes: string | null | undefined;
  violation: boolean;
  checks: CheckFact[];
  reported: boolean;
  /** why the judge was called in this iteration, as the oracle sees it */
  trigger: 'done' | 'cadence' | null;
  verdict: { pass: boolean } | null;
  /** the checks of its end ran (it is over) */
  closed: boolean;
}

/** One replayed path so far. */
export interface WorkLedger {
  machine: AnyStateMachine;
  input: WorkInput;
  config: Config;
  saga: boolean;
  snapshot: AnyMachineSnapshot;
  awaited: EffectRequest[];
  maxIterations: number;
  book: BudgetBook;
  /** the book as it was when this step's requests were emitted (before an admitted call was booked) */
  bookBefore: BudgetBook;
  wasPaused: boolean;
  lastEvent: MachineEvent | null;
  it: IterationFacts;
  /** DONE-triggered non-PASS verdicts since the last PASS (this chunk) */
  consecutive: number;
  /** a notes reset is owed (a DONE-triggered verdict said FAIL or was invalid) */
  resetOwed: boolean;
  /** a judge was called and its verdict not read yet (a verdict.md look before the call is the stamp) */
  verdictOwed: boolean;
  /** verdict.md's stamp just before the judge call: an unchanged file afterwards is no verdict */
  stampBefore: string | null;
  /** saga: chunks started, whether one is running, and what the scoper's files said */
  chunk: number;
  chunkOpen: boolean;
  chunkEnded: boolean;
  sagaNotesDone: boolean | null;
  subPlanBlank: boolean | null;
  notesContent: string | null;
  log: string | null;
  logged: number[];
  /** the last agent call could not authenticate and no AGENT_RETRY came yet */
  agentHeld: boolean;
  /** the last agent call was rate-limited: a wait is owed before it is made again */
  waitOwed: boolean;
  /** the decision's reads still owed (the notes, then the plan), and the clock reading read for it */
  decisionReads: string[];
  /** DESIGN §16: the role of the agent call whose protect scan is owed (null: none owed), and a judge overruled for changing protected files */
  scanOwed: 'worker' | 'judge' | 'scoper' | null;
  overruled: boolean;
  decisionClock: number | null;
  /** problems found while taking this step's requests and event */
  problems: Array<[InvariantName, string]>;
}

function freshIteration(iteration: number): IterationFacts {
  return { iteration, notes: undefined, violation: false, checks: [], reported: false, trigger: null, verdict: null, closed: false };
}

const saysDone = (line: string | null | undefined): boolean => line !== null && line !== undefined && /^STATUS:\s*DONE\s*$/.test(line.trim());

function breaksBoundary(config: Config, changed: readonly string[]): boolean {
  return changed.some((path) => config.noModify.some((prefix) => path.startsWith(prefix)));
}

/** Worker said DONE, the boundary held, every configured guard ran and every gating check passed. */
function workerDone(l: WorkLedger): boolean {
  const it = l.it;
  const guardsRan = l.config.guards.every((g) => it.checks.some((c) => c.kind === 'guard' && c.name === g.name));
  const gatingPassed = it.checks.filter((c) => c.kind !== 'periodic').every((c) => c.passed);
  return it.reported && saysDone(it.notes) && !it.violation && guardsRan && gatingPassed;
}

function onCadence(l: WorkLedger): boolean {
  const every = l.config.judgeEvery;
  return every !== undefined && l.it.iteration % every === 0 && !l.it.violation;
}

/** What should have ended the chunk (or brute run) now, by the oracle's account; null = nothing. */
function expectedEnd(l: WorkLedger): 'judge-pass' | 'judge-bailout' | 'max-iterations' | null {
  if (l.it.trigger === 'done' && l.it.verdict?.pass === true && workerDone(l)) return 'judge-pass';
  if (l.consecutive >= l.config.maxJudgeFailures) return 'judge-bailout';
  if (l.it.reported && l.it.iteration >= l.maxIterations) return 'max-iterations';
  return null;
}

function flag(l: WorkLedger, name: InvariantName, problem: string): void {
  l.problems.push([name, problem]);
}

/** An iteration (or chunk) is over: check that it was judged when it had to be. */
function closeIteration(l: WorkLedger, why: string): void {
  if (l.it.closed || !l.it.reported) return;
  l.it.closed = true;
  if (l.it.iteration > 0 && workerDone(l) && (l.it.trigger !== 'done' || l.it.verdict === null)) {
    flag(l, 'doneJudged', `iteration ${l.it.iteration} said DONE with passing checks but ${why} without a DONE judgment`);
  }
  if (l.it.reported && onCadence(l) && l.it.verdict === null) flag(l, 'cadence', `iteration ${l.it.iteration} is on the judge-every cadence but ${why} without a judgment`);
}

function takeSpawn(l: WorkLedger, r: Extract<EffectRequest, { kind: 'agent.spawn' }>): void {
  const p = r.params;
  if (l.saga && p.role !== 'scoper' && p.chunk !== l.chunk) flag(l, 'iterations', `${p.role} call for chunk ${p.chunk} during chunk ${l.chunk}`);
  switch (p.role) {
    case 'worker': {
      if (l.saga && !l.chunkOpen) flag(l, 'subPlan', `worker call with no non-blank sub-plan.md read for chunk ${l.chunk + 1}`);
      if (p.iteration === l.it.iteration) {
        if (l.it.notes !== undefined) flag(l, 'iterations', `a second worker call for iteration ${p.iteration}, whose first completed`);
        return;
      }
      if (p.iteration !== l.it.iteration + 1) flag(l, 'iterations', `worker call for iteration ${p.iteration} after iteration ${l.it.iteration}`);
      if (l.it.iteration > 0 && !l.it.reported) flag(l, 'iterations', `iteration ${l.it.iteration} was never reported`);
      closeIteration(l, 'the next worker call came');
      if (l.resetOwed) flag(l, 'reset', `worker call for iteration ${p.iteration} before notes.md was reset after a FAIL`);
      const end = expectedEnd(l);
      if (end === 'judge-pass') flag(l, 'pass', `iteration ${p.iteration} started after a DONE-triggered PASS`);
      if (end === 'judge-bailout') flag(l, 'bailout', `iteration ${p.iteration} started after ${l.consecutive} consecutive DONE FAILs (max ${l.config.maxJudgeFailures})`);
      if (end === 'max-iterations') flag(l, 'cap', `iteration ${p.iteration} started past the cap ${l.maxIterations}`);
      l.it = freshIteration(p.iteration);
      return;
    }
    case 'judge': {
      if (p.iteration !== l.it.iteration) flag(l, 'judge', `judge call for iteration ${p.iteration} during iteration ${l.it.iteration}`);
      if (!l.it.reported) flag(l, 'judge', `judge called in iteration ${l.it.iteration} before its guard results were written`);
      if (l.it.verdict !== null) flag(l, 'judge', `a second judgment in iteration ${l.it.iteration}`);
      const trigger = workerDone(l) ? 'done' : onCadence(l) ? 'cadence' : null;
      if (trigger === null) flag(l, 'judge', `judge called in iteration ${l.it.iteration} although the worker was not DONE with passing checks and it is off the cadence`);
      // DESIGN §16: a protected run's judge is also told which files are protected.
      const prompt = renderTemplate(l.input.judgePrompt ?? '', { iteration: p.iteration, loopDir: l.input.loopDir }) + protectionNote(l.input.protection, 'judge', scansEveryCall(l));
      if (p.prompt !== prompt) flag(l, 'judge', `the judge prompt is not the judge template alone: ${JSON.stringify(p.prompt)}`);
      const agent = l.config.judgeAgent ?? l.config.agent;
      if (JSON.stringify(p.agent) !== JSON.stringify(agent)) flag(l, 'judge', `the judge ran ${JSON.stringify(p.agent)}, not ${JSON.stringify(agent)}`);
      l.it.trigger = trigger;
      l.verdictOwed = true;
      return;
    }
    case 'scoper': {
      if (l.chunkOpen) flag(l, 'rescope', `scoper called while chunk ${l.chunk} is still running`);
      if (l.chunk > 0 && !l.logged.includes(l.chunk)) flag(l, 'sagaLog', `scoper called before chunk ${l.chunk}'s notes were logged`);
      if (p.chunk !== l.chunk + 1) flag(l, 'chunks', `scoper called for chunk ${p.chunk} after chunk ${l.chunk}`);
      l.chunkEnded = false;
      l.sagaNotesDone = null;
      l.subPlanBlank = null;
      return;
    }
  }
}

/** DESIGN §16: a run whose judge's and scoper's calls are scanned too (protected, started with `protectAll`). */
function scansEveryCall(l: WorkLedger): boolean {
  return l.input.protection !== undefined && l.input.protectAll === true;
}

function takeRequest(l: WorkLedger, r: EffectRequest): void {
  if (COMPLETION_EVENT[r.kind] !== null) l.awaited.push(r);
  // (a run that restores after calls puts the spec files back first: that reads and runs nothing)
  const restoreFirst = r.kind === 'spec.restore' && l.input.restoresAfterCalls === true;
  if ((l.scanOwed === 'judge' || l.scanOwed === 'scoper') && r.kind !== 'protect.scan' && !restoreFirst) flag(l, 'protect', `${r.kind} requested after the ${l.scanOwed}'s call, before its protect scan`);
  const parsed = effectSchemas[r.kind].params.safeParse(r.params);
  if (!parsed.success) flag(l, 'schema', `${r.kind} params ${JSON.stringify(r.params)}: ${parsed.error.message}`);
  switch (r.kind) {
    case 'wait.until':
      if (!l.waitOwed) flag(l, 'setback', `a wait was requested with no rate-limited call before it`);
      return;
    case 'agent.spawn': {
      if (l.waitOwed) flag(l, 'setback', `a ${r.params.role} call was made again without waiting out the rate limit`);
      if (l.agentHeld) flag(l, 'setback', `a ${r.params.role} call was made while held for authentication`);
      const problem = admissionProblem(l.book, r);
      if (problem !== null) flag(l, 'admit', problem);
      takeSpawn(l, r);
      l.book = bookRequests(l.book, [r]);
      return;
    }
    case 'spec.restore':
      // every iteration starts by restoring the spec: the reported one before it is over; a run that
      // restores after calls (input.restoresAfterCalls) also restores right after the judge, before its verdict is read
      if (!l.verdictOwed) closeIteration(l, 'the next iteration started');
      return;
    case 'notes.reset':
      if (r.params.file !== 'notes.md' || r.params.firstLine !== 'STATUS: IN_PROGRESS') flag(l, 'reset', `notes.reset ${JSON.stringify(r.params)}`);
      if (!l.resetOwed) flag(l, 'reset', `notes.md reset in iteration ${l.it.iteration} without a DONE-triggered FAIL`);
      l.resetOwed = false;
      return;
    case 'file.write':
      if (r.params.file === 'saga-log.md' && l.saga) {
        const entry = `## Chunk ${l.chunk}\n\n${(l.notesContent ?? '').trimEnd()}\n`;
        if (l.log !== null && !r.params.content.startsWith(l.log)) flag(l, 'sagaLog', 'saga-log.md was rewritten, not appended to');
        if (!r.params.content.endsWith(entry)) flag(l, 'sagaLog', `saga-log.md does not end with chunk ${l.chunk}'s notes under its heading: ${JSON.stringify(r.params.content.slice(-120))}`);
        if (l.chunkOpen) flag(l, 'sagaLog', `saga-log.md written while chunk ${l.chunk} runs`);
      } else if (r.params.file === 'verdict.md' && l.overruled) {
        if (!r.params.content.startsWith('VERDICT: FAIL\n')) flag(l, 'protect', `the overruled verdict does not start with VERDICT: FAIL: ${JSON.stringify(r.params.content.slice(0, 80))}`);
        l.overruled = false;
      } else if (r.params.file !== 'guard-results.md') {
        flag(l, 'files', `file.write ${r.params.file}`);
      }
      return;
    case 'file.inspect':
      if (!['verdict.md', 'saga-notes.md', 'sub-plan.md'].includes(r.params.file)) flag(l, 'files', `file.inspect ${r.params.file}`);
      return;
    case 'clock.read':
      if (r.params.purpose.includes('DECISIONS.md')) {
        if (l.input.contextLayer === undefined) flag(l, 'decision', 'a clock read for a decision entry in a run without the context layer');
        if (expectedEnd(l) !== 'judge-pass') flag(l, 'decision', `a decision entry on its way in iteration ${l.it.iteration}, which did not pass`);
        l.decisionReads = ['notes.md', l.saga ? 'sub-plan.md' : 'plan.md'];
      }
      return;
    case 'commit.create': {
      const passed = expectedEnd(l) === 'judge-pass';
      const entry = r.params.decision?.entry;
      if (l.input.contextLayer === undefined || !passed) {
        if (entry !== undefined) flag(l, 'decision', `a decision entry without ${passed ? 'the layer' : 'a pass'}: ${JSON.stringify(entry)}`);
        return;
      }
      const id = l.saga ? `chunk-${l.chunk}` : l.input.contextLayer.run.slice(0, 8);
      const head = `## ${utcDate(l.decisionClock ?? -1)} — ${id}: `;
      if (entry === undefined || !entry.startsWith(head)) flag(l, 'decision', `the passing commit's entry is ${JSON.stringify(entry)}, expected it to start with ${JSON.stringify(head)}`);
      if (l.decisionReads.length > 0) flag(l, 'decision', `committed before reading ${l.decisionReads.join(', ')}`);
      return;
    }
    case 'file.read':
      if (r.params.file === 'verdict.md' && l.overruled) return;
      if (l.decisionReads.length > 0) {
        const owed = l.decisionReads.shift();
        if (r.params.file !== owed) flag(l, 'decision', `file.read ${r.params.file} for the decision entry, expected ${owed ?? '?'}`);
        return;
      }
      if (!l.saga || !['notes.md', 'saga-log.md'].includes(r.params.file)) flag(l, 'files', `file.read ${r.params.file}`);
      if (l.chunkOpen) {
        // loggingChunk: the chunk just ended; it must have had a reason to
        const end = expectedEnd(l);
        if (end === null) flag(l, 'rescope', `chunk ${l.chunk} ended in iteration ${l.it.iteration} with no pass, bailout or cap`);
        closeIteration(l, `chunk ${l.chunk} ended`);
        l.chunkOpen = false;
        l.chunkEnded = true;
      }
      return;
    default:
      return;
  }
}

/** Match an event to the request it answers and record the fact it carries. */
function answer(l: WorkLedger, event: MachineEvent): void {
  l.book = bookEvent(l.book, event);
  if (event.type === 'SET_MAX_ITERATIONS') {
    l.maxIterations = event.max;
    return;
  }
  if (event.type === 'BUDGET_RAISED' || event.type === 'PROTECTION_REFRESHED') return;
  if (event.type === 'AGENT_RETRY') {
    if (!l.agentHeld) flag(l, 'setback', 'AGENT_RETRY accepted although no agent call failed to authenticate or had a tool call held');
    l.agentHeld = false;
    return;
  }
  const index = l.awaited.findIndex((r) => (event.type === 'AGENT_INTERRUPTED' ? r.kind === 'agent.spawn' : COMPLETION_EVENT[r.kind] === event.type));
  const answered = l.awaited[index];
  if (answered === undefined) {
    flag(l, 'await', `${event.type} answers no outstanding request (${l.awaited.map((r) => r.kind).join(', ')})`);
    return;
  }
  l.awaited.splice(index, 1);
  switch (event.type) {
    case 'AGENT_EXITED':
      if (isSetback(event)) {
        if (event.result.classification === 'auth-error' || event.result.classification === 'tool-held' || event.result.classification === 'tool-ungated') l.agentHeld = true;
        else l.waitOwed = true;
        // The same call is made again: a judge's verdict is not read from this one.
        if (answered.kind === 'agent.spawn' && answered.params.role === 'judge') l.verdictOwed = false;
        return;
      }
      if (answered.kind === 'agent.spawn' && l.input.protection !== undefined && (answered.params.role === 'worker' || scansEveryCall(l))) l.scanOwed = answered.params.role;
      return;
    case 'WAITED':
      l.waitOwed = false;
      return;
    case 'AGENT_INTERRUPTED':
      // A judge cut short is asked again after a fresh look at verdict.md: no verdict is owed.
      if (answered.kind === 'agent.spawn' && answered.params.role === 'judge') l.verdictOwed = false;
      return;
    case 'NOTES_READ':
      l.it.notes = event.result.firstLine;
      return;
    case 'BOUNDARY_SCANNED':
      l.it.violation = breaksBoundary(l.config, event.result.changed);
      return;
    // DESIGN §16: a protected file that differs from the baseline is a violation too (the restore follows it).
    case 'PROTECT_SCANNED': {
      const drifted = protectionDrift(l.input.protection?.files ?? [], event.result.files).length > 0;
      const role = l.scanOwed;
      l.scanOwed = null;
      if (role === null) flag(l, 'protect', 'a protect scan with no agent call before it');
      if (role === 'scoper') return;
      if (role !== 'judge') {
        l.it.violation ||= drifted;
        return;
      }
      if (!drifted) return;
      // the judge changed a protected file: its verdict is a FAIL, whatever verdict.md says
      l.overruled = true;
      l.verdictOwed = false;
      l.it.verdict = { pass: false };
      if (l.it.trigger === 'done') {
        l.consecutive += 1;
        l.resetOwed = true;
      }
      return;
    }
    case 'CHECK_FINISHED':
      if (answered.kind === 'check.run') l.it.checks.push({ kind: answered.params.kind, name: answered.params.name, passed: event.result.outcome === 'exited' && event.result.exitCode === 0 });
      return;
    case 'FILE_WRITTEN':
      if (answered.kind !== 'file.write') return;
      if (answered.params.file === 'guard-results.md') l.it.reported = true;
      if (answered.params.file === 'saga-log.md') {
        l.log = answered.params.content;
        l.logged.push(l.chunk);
      }
      return;
    case 'FILE_READ':
      l.notesContent = event.result.content;
      return;
    case 'CLOCK_READ':
      if (answered.kind === 'clock.read' && answered.params.purpose.includes('DECISIONS.md')) l.decisionClock = event.result.now;
      return;
    case 'FILE_INSPECTED': {
      if (answered.kind !== 'file.inspect') return;
      const first = event.result.firstLine;
      if (answered.params.file === 'verdict.md') {
        if (!l.verdictOwed) {
          l.stampBefore = event.result.stamp; // the look taken before the judge call, not a verdict
          return;
        }
        l.verdictOwed = false;
        const fresh = !(l.stampBefore !== null && event.result.stamp === l.stampBefore);
        const pass = fresh && event.result.exists && first !== null && /^VERDICT:\s*PASS\s*$/.test(first.trim());
        l.it.verdict = { pass };
        if (pass) l.consecutive = 0;
        else if (l.it.trigger === 'done') {
          l.consecutive += 1;
          l.resetOwed = true;
        }
      } else if (answered.params.file === 'saga-notes.md') {
        l.sagaNotesDone = saysDone(first);
      } else if (answered.params.file === 'sub-plan.md') {
        l.subPlanBlank = event.result.blank;
        if (l.sagaNotesDone === true) flag(l, 'sagaDone', 'sub-plan.md read although saga-notes.md said DONE');
        if (!event.result.blank) {
          if (l.chunk >= l.config.maxChunks) flag(l, 'chunks', `chunk ${l.chunk + 1} started with max-chunks ${l.config.maxChunks}`);
          l.chunk += 1;
          l.chunkOpen = true;
          l.it = freshIteration(0);
          l.consecutive = 0;
          l.resetOwed = false;
        }
      }
      return;
    }
    default:
      return;
  }
}

/** Checks on the state the step left: holds, the run's end. */
function checkState(l: WorkLedger): void {
  const s = l.snapshot;
  const held = s.status === 'active' && s.hasTag('paused');
  if (l.awaited.length > 1) flag(l, 'await', `${l.awaited.length} awaited requests: ${l.awaited.map((r) => r.kind).join(', ')}`);
  if (s.status === 'active' && !held && l.awaited.length !== 1) flag(l, 'await', `active in ${JSON.stringify(s.value)} with nothing to wait for`);
  if ((held || s.status !== 'active') && l.awaited.length !== 0) flag(l, 'await', `${held ? 'held' : 'ended'} with ${l.awaited[0]?.kind} outstanding`);
  const agentHold = held && JSON.stringify(s.value).includes('AgentHold');
  if (agentHold) {
    if (!l.agentHeld) flag(l, 'setback', `held in ${JSON.stringify(s.value)} although no agent call failed to authenticate or had a tool call held`);
  } else if (held) {
    const role = heldRole(s.value);
    if (role === null) flag(l, 'held', `held in ${JSON.stringify(s.value)}, which is no admission hold`);
    else if (breachFor(l.book, role) === null) flag(l, 'held', `held in ${JSON.stringify(s.value)} with nothing breached (${describeBook(l.book)})`);
  }
  // A raise does not concern a run held for its agent's credentials: it stays held.
  if (l.wasPaused && l.lastEvent?.type === 'BUDGET_RAISED' && !agentHold) {
    const role = heldRole(s.value) ?? l.book.pendingRole ?? 'worker';
    const rereadsClock = JSON.stringify(s.value).includes('Clock');
    const breach = breachFor(l.bookBefore, role, { ignoreWall: rereadsClock });
    if (!held && !rereadsClock && breach !== null) flag(l, 'raise', `left the hold for ${JSON.stringify(s.value)} with the ${breach} budget spent (${describeBook(l.book)})`);
    if (held && breachFor(l.book, role, { ignoreWall: true }) === null) flag(l, 'raise', `still held after the breach is gone (${describeBook(l.book)})`);
  }
  if (s.status !== 'done' || l.lastEvent === null) return;
  const out = s.output as { exitCode: number; reason: string };
  if (!l.saga) {
    closeIteration(l, 'the run ended');
    const end = expectedEnd(l);
    const name: InvariantName = out.reason === 'judge-pass' || end === 'judge-pass' ? 'pass' : out.reason === 'judge-bailout' || end === 'judge-bailout' ? 'bailout' : 'cap';
    if (out.reason !== end) flag(l, name, `the run ended with ${out.reason} (exit ${out.exitCode}); by the ledger it should be ${end ?? 'still running'} (iteration ${l.it.iteration}, ${l.consecutive} consecutive FAILs)`);
    if (out.exitCode !== (out.reason === 'judge-pass' ? 0 : 1)) flag(l, 'pass', `exit ${out.exitCode} for ${out.reason}`);
    return;
  }
  if (l.chunkOpen || l.chunkEnded) flag(l, 'rescope', `the saga ended (${out.reason}) with chunk ${l.chunk} ${l.chunkOpen ? 'still running' : 'not handed back to the scoper'}`);
  const expected = l.sagaNotesDone === true ? 'saga-done' : l.chunk >= l.config.maxChunks && l.sagaNotesDone === false ? 'max-chunks' : l.subPlanBlank === true ? 'empty-sub-plan' : null;
  const name: InvariantName = out.reason === 'saga-done' || expected === 'saga-done' ? 'sagaDone' : out.reason === 'empty-sub-plan' || expected === 'empty-sub-plan' ? 'subPlan' : 'chunks';
  if (out.reason !== expected) flag(l, name, `the saga ended with ${out.reason}; by the ledger it should be ${expected ?? 'still running'} (chunk ${l.chunk}, saga-notes DONE ${String(l.sagaNotesDone)})`);
  if (out.exitCode !== (out.reason === 'saga-done' ? 0 : 1)) flag(l, 'sagaDone', `exit ${out.exitCode} for ${out.reason}`);
}

function report(l: WorkLedger, describe: () => string, failures: string[]): void {
  for (const [name, problem] of l.problems) failures.push(`${INVARIANT[name]}\n  ${problem}\n  after ${describe()}`);
  l.problems = [];
}

/** The ledger after `initialTransition`, checked; `oracle` is the input the checks assume (default: the machine's). */
export function startLedger(machine: AnyStateMachine, input: WorkInput, failures: string[], oracle: WorkInput = input): WorkLedger {
  const [initial, actions] = initialTransition(machine, input);
  const l: WorkLedger = {
    machine, input: oracle, config: oracle.config, saga: input.config.mode === 'saga', snapshot: initial, awaited: [],
    maxIterations: input.config.maxIterations, book: openBook(input.config), bookBefore: openBook(input.config), wasPaused: false, lastEvent: null,
    it: freshIteration(0), consecutive: 0, resetOwed: false, verdictOwed: false, stampBefore: null,
    chunk: 0, chunkOpen: input.config.mode !== 'saga', chunkEnded: false, sagaNotesDone: null, subPlanBlank: null, notesContent: null, log: null, logged: [],
    agentHeld: false, waitOwed: false, decisionReads: [], decisionClock: null, scanOwed: null, overruled: false, problems: [],
  };
  for (const r of requestsOf(actions)) takeRequest(l, r);
  checkState(l);
  report(l, () => 'the start', failures);
  return l;
}

/** Feed `event` through the pure machine: a new ledger, invariants checked. */
export function stepLedger(before: WorkLedger, event: MachineEvent, describe: () => string, failures: string[]): WorkLedger {
  const l: WorkLedger = {
    ...before, awaited: [...before.awaited], it: { ...before.it, checks: [...before.it.checks], verdict: before.it.verdict }, logged: [...before.logged], decisionReads: [...before.decisionReads], problems: [],
  };
  if (l.snapshot.status !== 'active') {
    failures.push(`${event.type} after the machine ended: ${describe()}`);
    return l;
  }
  l.lastEvent = event;
  l.wasPaused = l.snapshot.hasTag('paused');
  answer(l, event);
  const [next, actions] = transition(l.machine, l.snapshot, event);
  l.snapshot = next;
  l.bookBefore = l.book;
  for (const r of requestsOf(actions)) takeRequest(l, r);
  checkState(l);
  report(l, describe, failures);
  return l;
}

/**
 * Replay every path with the ledger; the failures found (empty when every invariant held).
 * `firstOnly` stops at the first; `oracle` checks against another input than the machine runs
 * (a machine "configured wrong", to show the invariants catch it).
 */
export function checkPaths(
  machine: AnyStateMachine,
  input: WorkInput,
  paths: readonly MachineEvent[][],
  describe: (path: readonly MachineEvent[]) => string,
  options: { firstOnly?: boolean; oracle?: WorkInput } = {},
): { failures: string[]; folded: number } {
  const failures: string[] = [];
  const folded = replayAll(paths, startLedger(machine, input, failures, options.oracle), (ledger, path) =>
    options.firstOnly === true && failures.length > 0 ? ledger : stepLedger(ledger, path.at(-1) as MachineEvent, () => `step ${path.length}: ${describe(path)}`, failures));
  return { failures, folded };
}
