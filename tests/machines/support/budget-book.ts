// An independent account of what a run spent and may still spend, kept from requests and events
// only (never from the machine's context): the oracle for call admission in the model-based and
// property tests of the loop, brute and saga machines.
//
// Admission rules it encodes (DESIGN §3, issue 3): before every agent call, a call that would be
// the (N+1)th worker attempt under `budget attempts N` is refused, and so is any call once known
// tokens / cost / agent minutes reached their ceiling, or once the wall clock read for this very
// admission is `wall-minutes` past the first reading. Unknown usage adds nothing (it is unknown).
import type { BudgetDimension, Config } from '../../../config/types.js';
import type { MachineEvent } from '../../../machines/effect-events.js';
import type { EffectRequest, Role, Usage } from '../../../machines/effects.js';

/** What was requested and reported so far, and the ceilings as the operator left them. */
export interface BudgetBook {
  ceilings: Partial<Record<BudgetDimension, number>>;
  /** worker calls requested (an interrupted call was started, so it counts) */
  attempts: number;
  /** input + output tokens of the calls that reported both */
  tokens: number;
  costUsd: number;
  agentMs: number;
  /** the first clock reading (the run's start for wall-minutes) and the latest one */
  firstClock: number | null;
  clock: number | null;
  /** a clock reading arrived after the last agent call was requested */
  clockReadSinceCall: boolean;
  /** the agent call requested last and not answered yet */
  pendingRole: Role | null;
}

/** A fresh book for a run of `config`. */
export function openBook(config: Config): BudgetBook {
  return {
    ceilings: { ...config.budgets }, attempts: 0, tokens: 0, costUsd: 0, agentMs: 0,
    firstClock: null, clock: null, clockReadSinceCall: false, pendingRole: null,
  };
}

/** Known tokens of one call (input + output), or null when either is unknown. */
export function tokensOf(usage: Usage | null): number | null {
  return usage && usage.inputTokens !== null && usage.outputTokens !== null ? usage.inputTokens + usage.outputTokens : null;
}

/** The book after the machine emitted `requests` (an agent call is admitted: a worker call is an attempt). */
export function bookRequests(book: BudgetBook, requests: readonly EffectRequest[]): BudgetBook {
  let next = book;
  for (const r of requests) {
    if (r.kind !== 'agent.spawn') continue;
    next = { ...next, attempts: next.attempts + (r.params.role === 'worker' ? 1 : 0), clockReadSinceCall: false, pendingRole: r.params.role };
  }
  return next;
}

/** An agent call refused by a rate limit or an authentication failure (its adapter says so). */
export function isSetback(event: MachineEvent): boolean {
  return event.type === 'AGENT_EXITED' && ['rate-limited', 'auth-error', 'tool-held', 'tool-ungated'].includes(event.result.classification ?? 'ok');
}

/** The book after `event` reached the machine. */
export function bookEvent(book: BudgetBook, event: MachineEvent): BudgetBook {
  switch (event.type) {
    case 'AGENT_EXITED':
      return {
        ...book,
        // A rate-limited or unauthenticated worker call did no work: its attempt is given back.
        attempts: book.attempts - (book.pendingRole === 'worker' && isSetback(event) ? 1 : 0),
        tokens: book.tokens + (tokensOf(event.result.usage) ?? 0),
        costUsd: book.costUsd + (event.result.usage?.costUsd ?? 0),
        agentMs: book.agentMs + event.result.durationMs,
        pendingRole: null,
      };
    case 'AGENT_INTERRUPTED':
      return { ...book, pendingRole: null };
    case 'CLOCK_READ':
      return { ...book, clock: event.result.now, firstClock: book.firstClock ?? event.result.now, clockReadSinceCall: true };
    case 'BUDGET_RAISED':
      return { ...book, ceilings: { ...book.ceilings, [event.dimension]: event.value } };
    default:
      return book;
  }
}

/**
 * The ceiling a call by `role` admitted now would break, or null. `attempts` limits worker calls
 * only: a judge or scoper call spends no attempt. With `ignoreWall`, wall-minutes is left out (a
 * fresh clock reading decides it).
 */
export function breachFor(book: BudgetBook, role: Role, options: { ignoreWall?: boolean } = {}): BudgetDimension | null {
  const c = book.ceilings;
  if (c.attempts !== undefined && role === 'worker' && book.attempts + 1 > c.attempts) return 'attempts';
  if (c.tokens !== undefined && book.tokens >= c.tokens) return 'tokens';
  if (c['cost-usd'] !== undefined && book.costUsd >= c['cost-usd']) return 'cost-usd';
  if (c.minutes !== undefined && book.agentMs >= c.minutes * 60_000) return 'minutes';
  const wall = c['wall-minutes'];
  if (!options.ignoreWall && wall !== undefined && book.clock !== null && book.firstClock !== null && book.clock - book.firstClock >= wall * 60_000) {
    return 'wall-minutes';
  }
  return null;
}

/** The role whose call a held machine is waiting to admit, from its state value (`…Hold`). */
export function heldRole(stateValue: unknown): Role | null {
  const text = JSON.stringify(stateValue);
  if (text.includes('workerHold')) return 'worker';
  if (text.includes('judgeHold')) return 'judge';
  if (text.includes('scoperHold')) return 'scoper';
  return null;
}

/** A problem with an agent call the machine just requested, judged on the book before it: null when admissible. */
export function admissionProblem(before: BudgetBook, call: Extract<EffectRequest, { kind: 'agent.spawn' }>): string | null {
  const breach = breachFor(before, call.params.role);
  if (breach !== null) return `a ${call.params.role} call was requested although the ${breach} budget is spent (${describeBook(before)})`;
  if (before.ceilings['wall-minutes'] !== undefined && !before.clockReadSinceCall) {
    return `a ${call.params.role} call was admitted under a wall-minutes budget without a fresh clock reading`;
  }
  return null;
}

/** One line for failure messages. */
export function describeBook(book: BudgetBook): string {
  return `ceilings ${JSON.stringify(book.ceilings)}, attempts ${book.attempts}, tokens ${book.tokens}, cost ${book.costUsd}, clock ${book.firstClock}→${book.clock}`;
}
