// The bookkeeper for the parallel stories coordinator (DESIGN §10): an oracle that never reads the
// machine's context. It follows one replayed path from the requests the machine emits (each names its
// lane: the story) and the events fed back, keeps its own account of the lanes, the integration lane,
// the target, which story landed, which is blocked and why, and names the invariant every wrong step
// breaks.
import { initialTransition, transition, type AnyMachineSnapshot, type AnyStateMachine } from 'xstate';
import { lacksCriteria, storyChecks, type Story } from '../../../config/prd/story.js';
import { COMPLETION_EVENT, INTERRUPTION_EVENT, LANE_INTERRUPTIBLE, type MachineEvent } from '../../../machines/effect-events.js';
import type { ProtectedFile } from '../../../machines/protect/protection.js';
import { effectSchemas, type EffectRequest } from '../../../machines/effects.js';
import type { WorkInput } from '../../../machines/work/work-context.js';
import { requestsOf } from './loop-driver.js';
import { replayAll } from './replay-paths.js';

export const PARALLEL_INVARIANT = {
  await: 'each lane (and the run outside lanes) has at most one outstanding request, every event answers its lane\'s, and nothing is requested after the end',
  schema: 'every request\'s params pass its zod schema',
  ready: '§10 a lane starts only a ready story: not landed, not blocked, every dependency landed, with acceptance criteria; never one already in a lane, never after a blocked story with on-story-blocked stop',
  lanes: '§10 at most N stories hold a lane at once',
  clash: '§10 two stories whose last attempts touched the same file are never started side by side',
  base: '§10 a worktree is cut from the target as it is now',
  laneGates: '§10 a candidate is committed only after its turn said DONE, left the boundary clean and passed the guards and then the story\'s own checks, in order',
  serial: '§10 the integration lane takes one candidate at a time, and only a committed one',
  integrationGates: '§10 a story lands only after its candidate rebased cleanly onto the target and every guard and check passed again on the integrated tree, in order, from the target as it is',
  reject: '§10 a conflict or a failing gate on the integrated tree rejects the candidate, naming the gate',
  landOnce: 'no story lands twice',
  remove: '§10 a worktree is removed only after the target contains the story\'s commit',
  turns: '§10 every lane turn is one iteration of the run: a story started, a failed turn gone round again, a rejected story started again; numbered in order, none past max-iterations',
  setbacks: '§4 in a lane too: a rate-limited call waits in its lane, then the same turn calls again; a call that cannot authenticate holds its lane until `yoke run` retries; neither spends a turn or an attempt',
  toolHolds: '§13 in a lane too: a call whose tool call was held, or whose tool calls went around the gate, holds its lane until `yoke run` goes on, and the held call\'s session is resumed',
  attempts: '§10 a failed DONE claim and a rejected candidate each count as one attempt; max-story-attempts of them block the story',
  protect: '§16 in a lane too: the worktree holds the protected baseline before every worker call, whose prompt names the protected files; a worker\'s change to one is a violation, restored before any check runs; a candidate that changes one never lands',
  end: '§10 the run ends only when no lane has work left, and exits 0 exactly when every story landed',
} as const;
type Name = keyof typeof PARALLEL_INVARIANT;

interface Check {
  name: string;
  command: string;
  passed: boolean | null;
}

/** One lane's current turn, as the oracle saw it. */
interface Turn {
  iteration: number;
  notes: string | null | undefined;
  violation: boolean;
  checks: Check[];
  /** the report was written: the turn is decided */
  decided: boolean;
  committed: boolean;
  /** protected files: scanned after the worker; the restore the scan calls for (null: none owed) */
  protectScanned: boolean;
  owedRestore: string | null;
}

/** What the oracle knows at one step of one path. */
interface ParallelBook {
  landed: Record<string, string>;
  blocked: string[];
  attempts: Record<string, number>;
  touched: Record<string, string[]>;
  /** stories holding a lane (from their worktree until removed or parked) */
  lanes: string[];
  turns: Record<string, Turn | null>;
  integration: { story: string; rebased: string | null; ok: boolean | null; checks: Check[]; protectedChanges: string[] } | null;
  /** lanes whose worktree got the protected baseline since their last worker call */
  guarded: Record<string, boolean>;
  target: string;
  /** outstanding requests by lane ('' for the run's own) */
  outstanding: Record<string, EffectRequest>;
  /** lane turns so far, and the number of each story's current turn */
  turnCount: number;
  turnOf: Record<string, number>;
  /** a lane's last call was rate-limited (it must wait next), could not authenticate or held a tool call (nothing until AGENT_RETRY) */
  setback: Record<string, 'rate-limited' | 'auth-error' | 'tool-held'>;
  /** the session a lane's next worker call must resume (its call held a tool call) */
  resume: Record<string, string>;
  ended: boolean;
}

/** The rules of the run, read from the input (what the user wrote), never from the machine. */
interface Rules {
  stories: readonly Story[];
  parallel: number;
  guards: readonly string[];
  noModify: readonly string[];
  maxAttempts: number;
  skip: boolean;
  max: number;
  /** the run journals lane setbacks (new runs: `laneSetbacks` in the input) */
  setbacks: boolean;
  /** lanes go through the tool-call gate and hold on its holds (`laneToolGate`) */
  toolGate: boolean;
  /** the lanes keep protected files (`laneProtect` and a baseline in the input): its patterns and files */
  protect: { patterns: readonly string[]; files: readonly ProtectedFile[] } | null;
  /** a rejected story goes back to the scheduler (`laneRequeue`) */
  requeue: boolean;
  /** what earlier runs' lanes touched (`touchedBefore`) */
  touchedBefore: Readonly<Record<string, string[]>>;
}

function rulesOf(input: WorkInput): Rules {
  const c = input.config;
  const maxAttempts = c.maxStoryAttempts ?? 3;
  // the same failure three times in a row also blocks (NO_PROGRESS_REPEATS): the oracle does not model it, so no config may reach it
  if (maxAttempts > 2) throw new Error('the parallel oracle models max-story-attempts up to 2 (a third identical failure would block by no-progress)');
  return {
    stories: input.stories ?? [], parallel: c.parallel ?? 1, guards: c.guards.map((g) => g.name), noModify: c.noModify,
    maxAttempts, skip: c.onStoryBlocked === 'skip', max: c.maxIterations, setbacks: input.laneSetbacks === true,
    toolGate: input.laneSetbacks === true && input.laneToolGate === true,
    protect: input.laneProtect === true && input.protection ? { patterns: input.protection.patterns, files: input.protection.files } : null,
    requeue: input.laneRequeue === true, touchedBefore: input.touchedBefore ?? {},
  };
}

/** The gates of one story's turn or integration: the guards, then its own `check` criteria (named `<id>#<n>`). */
function gatesOf(rules: Rules, story: Story): Array<{ name: string; command: string | null }> {
  const criteria = story.acceptance ?? [];
  return [
    ...rules.guards.map((name) => ({ name, command: null })),
    ...storyChecks(story).map((c) => ({ name: `${story.id}#${criteria.indexOf(c) + 1}`, command: c.check ?? '' })),
  ];
}

function sameGates(rules: Rules, story: Story, checks: readonly Check[]): string | null {
  const want = gatesOf(rules, story);
  const names = checks.map((c) => c.name);
  if (JSON.stringify(names) !== JSON.stringify(want.map((g) => g.name))) return `checks ${JSON.stringify(names)}, the guards and ${story.id} ask for ${JSON.stringify(want.map((g) => g.name))}`;
  const commands = want.flatMap((g, i) => (g.command === null ? [] : [[g.command, checks[i]?.command]]));
  const wrong = commands.find(([want, ran]) => want !== ran);
  if (wrong) return `a story check ran \`${String(wrong[1])}\`, prd.yaml says \`${String(wrong[0])}\``;
  const failed = checks.find((c) => c.passed !== true);
  return failed ? `check ${failed.name} did not pass` : null;
}

/** The oracle's own reading of a protect pattern: a folder (`tests/`) or one path (no globs in the models). */
function covers(patterns: readonly string[], path: string): boolean {
  return patterns.some((pattern) => (pattern.endsWith('/') ? path.startsWith(pattern) : path === pattern));
}

/** The restore a scan calls for, as text (what the oracle compares the lane's restore with): baseline files back, others removed. */
function restoreFor(baseline: readonly ProtectedFile[], now: readonly ProtectedFile[]): string | null {
  const write = baseline.filter((file) => !now.some((other) => other.path === file.path && other.sha256 === file.sha256 && other.mode === file.mode));
  const remove = now.filter((file) => !baseline.some((other) => other.path === file.path)).map((file) => file.path);
  return write.length + remove.length === 0 ? null : JSON.stringify({ write: write.map((file) => file.path).sort(), remove: remove.sort() });
}

class Ledger {
  readonly failures: string[] = [];
  constructor(private readonly rules: Rules, private readonly describe: (path: readonly MachineEvent[]) => string) {}

  private fail(name: Name, path: readonly MachineEvent[], detail: string): void {
    this.failures.push(`${PARALLEL_INVARIANT[name]}\n  ${detail}\n  path: ${this.describe(path)}`);
  }

  private story(id: string): Story {
    const story = this.rules.stories.find((s) => s.id === id);
    if (!story) throw new Error(`no story ${id} in the user's prd.yaml`);
    return story;
  }

  /** A story's lane lets go of it (blocked, or no turn left): its worktree stays. */
  private park(book: ParallelBook, id: string): void {
    book.lanes = book.lanes.filter((s) => s !== id);
    book.turns[id] = null;
  }

  /** One attempt more for `id` (a failed DONE claim or a rejection); blocked at max-story-attempts. */
  private attempt(book: ParallelBook, id: string): void {
    const attempts = (book.attempts[id] ?? 0) + 1;
    book.attempts[id] = attempts;
    if (attempts >= this.rules.maxAttempts && !book.blocked.includes(id)) book.blocked.push(id);
  }

  /** `id`'s lane starts a turn: one iteration of the run. */
  private nextTurn(book: ParallelBook, id: string, path: readonly MachineEvent[]): void {
    if (book.turnCount >= this.rules.max) this.fail('turns', path, `${id} starts turn ${book.turnCount + 1} with max-iterations ${this.rules.max}`);
    book.turnCount += 1;
    book.turnOf[id] = book.turnCount;
    book.turns[id] = null;
  }

  private stopping(book: ParallelBook): boolean {
    return !this.rules.skip && book.blocked.length > 0;
  }

  private ready(book: ParallelBook, story: Story): boolean {
    return book.landed[story.id] === undefined && !book.blocked.includes(story.id) && story.dependsOn.every((d) => book.landed[d] !== undefined) && !lacksCriteria(story);
  }

  private onRequest(book: ParallelBook, request: EffectRequest, path: readonly MachineEvent[]): void {
    const schema = effectSchemas[request.kind].params.safeParse(request.params);
    if (!schema.success) this.fail('schema', path, `${request.kind}: ${schema.error.message}`);
    if (book.ended) this.fail('await', path, `${request.kind} requested after the end`);
    const lane = (request.params as { lane?: string }).lane;
    const setback = lane === undefined ? undefined : book.setback[lane];
    if (setback === 'auth-error') this.fail('setbacks', path, `${request.kind} for ${String(lane)} while its agent could not authenticate and no retry came`);
    if (setback === 'tool-held') this.fail('toolHolds', path, `${request.kind} for ${String(lane)} while its agent's tool call was held and no retry came`);
    if (request.kind === 'agent.spawn' && lane !== undefined && book.resume[lane] !== undefined) {
      if (request.params.resume !== book.resume[lane]) this.fail('toolHolds', path, `the worker call for ${lane} after its held tool call resumes ${String(request.params.resume)}, not session ${book.resume[lane]}`);
      delete book.resume[lane];
    } else if (request.kind === 'agent.spawn' && request.params.resume !== undefined) this.fail('toolHolds', path, `the worker call for ${String(lane)} resumes session ${request.params.resume}, though no held call ended there`);
    if (setback === 'rate-limited') {
      if (request.kind !== 'wait.until') this.fail('setbacks', path, `${request.kind} for ${String(lane)} right after its rate-limited call, without waiting`);
      else if (lane !== undefined) delete book.setback[lane];
    }
    switch (request.kind) {
      case 'worktree.create': {
        const id = request.params.story;
        const story = this.story(id);
        const fresh = !book.lanes.includes(id);
        if (!this.ready(book, story)) this.fail('ready', path, `${id} started, but it is ${book.landed[id] !== undefined ? 'landed' : book.blocked.includes(id) ? 'blocked' : 'not ready'}`);
        if (fresh && this.stopping(book)) this.fail('ready', path, `${id} started after ${book.blocked.join(', ')} was blocked (on-story-blocked stop)`);
        if (fresh) {
          const mine = new Set(book.touched[id] ?? []);
          for (const other of book.lanes) {
            const shared = (book.touched[other] ?? []).filter((file) => mine.has(file));
            if (shared.length > 0) this.fail('clash', path, `${id} started beside ${other}; both last touched ${shared.join(', ')}`);
          }
          book.lanes.push(id);
        }
        if (book.lanes.length > this.rules.parallel) this.fail('lanes', path, `${book.lanes.length} stories hold lanes (${book.lanes.join(', ')}), parallel is ${this.rules.parallel}`);
        if (request.params.base !== book.target) this.fail('base', path, `${id}'s worktree is cut from ${request.params.base}, the target is at ${book.target}`);
        book.guarded[id] = false;
        this.nextTurn(book, id, path);
        return;
      }
      case 'protect.restore': {
        const id = lane ?? '?';
        const turn = book.turns[id];
        const protect = this.rules.protect;
        if (protect === null) return this.fail('protect', path, `protect.restore in ${id}'s lane, which keeps no protected files`);
        const plan = JSON.stringify({ write: request.params.write.map((file) => file.path).sort(), remove: [...request.params.remove].sort() });
        if (turn?.owedRestore != null) {
          if (plan !== turn.owedRestore) this.fail('protect', path, `${id} restores ${plan}, its scan called for ${turn.owedRestore}`);
          turn.owedRestore = null;
          return;
        }
        // the restore step: the whole baseline back in the worktree
        if (JSON.stringify(request.params.write) !== JSON.stringify(protect.files) || request.params.remove.length > 0) this.fail('protect', path, `${id}'s restore step writes ${plan}, not the baseline`);
        book.guarded[id] = true;
        return;
      }
      case 'protect.scan': {
        const turn = book.turns[lane ?? '?'];
        if (turn) turn.protectScanned = true;
        return;
      }
      case 'agent.spawn': {
        const id = request.params.story ?? '?';
        if (!book.lanes.includes(id)) this.fail('ready', path, `a worker call for ${id}, which holds no lane`);
        const turn = book.turns[id];
        if (this.rules.protect !== null) {
          if (book.guarded[id] !== true) this.fail('protect', path, `${id}'s worker is called without the protected baseline restored in its worktree first`);
          if (!request.params.prompt.includes('## Protected files (acceptance infrastructure)')) this.fail('protect', path, `${id}'s worker prompt does not name the protected files`);
          book.guarded[id] = false;
        }
        // the same turn's call again (cut short): its facts start over
        if (turn && turn.iteration === request.params.iteration && !turn.decided) book.turns[id] = { ...turn, notes: undefined, violation: false, checks: [], protectScanned: false, owedRestore: null };
        else book.turns[id] = { iteration: request.params.iteration, notes: undefined, violation: false, checks: [], decided: false, committed: false, protectScanned: false, owedRestore: null };
        if (request.params.iteration !== book.turnOf[id]) this.fail('turns', path, `${id}'s worker call is iteration ${request.params.iteration}, the oracle counts turn ${String(book.turnOf[id])}`);
        return;
      }
      case 'check.run': {
        const id = lane ?? '?';
        const check = { name: request.params.name, command: request.params.command, passed: null };
        if (book.integration?.story === id) {
          if (book.integration.ok !== true) this.fail('integrationGates', path, `check ${check.name} of ${id} on the integrated tree before a clean rebase`);
          book.integration.checks.push(check);
          return;
        }
        const turn = book.turns[id];
        if (!turn) return this.fail('laneGates', path, `check ${check.name} for ${id} outside a turn`);
        if (turn.violation) this.fail('laneGates', path, `check ${check.name} ran after ${id}'s boundary violation`);
        if (this.rules.protect !== null && (!turn.protectScanned || turn.owedRestore !== null)) this.fail('protect', path, `check ${check.name} of ${id} ran before its protected files were ${turn.protectScanned ? 'restored' : 'scanned'}`);
        turn.checks.push(check);
        return;
      }
      case 'candidate.commit': {
        const id = request.params.story;
        const turn = book.turns[id];
        if (!turn) return this.fail('laneGates', path, `a candidate of ${id} outside a turn`);
        if (turn.notes !== 'STATUS: DONE') this.fail('laneGates', path, `a candidate of ${id} after notes ${JSON.stringify(turn.notes)}`);
        if (turn.violation) this.fail('laneGates', path, `a candidate of ${id} after a boundary violation`);
        if (this.rules.protect !== null && !turn.protectScanned) this.fail('protect', path, `a candidate of ${id} before its protected files were scanned`);
        const gates = sameGates(this.rules, this.story(id), turn.checks);
        if (gates !== null) this.fail('laneGates', path, `a candidate of ${id}: ${gates}`);
        if (request.params.message !== `feat(${id}): ${this.story(id).title}`) this.fail('laneGates', path, `the candidate's subject is ${request.params.message}`);
        turn.committed = true;
        return;
      }
      case 'candidate.rebase': {
        const id = request.params.story;
        if (book.integration !== null) this.fail('serial', path, `${id} is rebased while ${book.integration.story} is being integrated`);
        if (book.turns[id]?.committed !== true) this.fail('serial', path, `${id} is integrated without a committed candidate`);
        book.integration = { story: id, rebased: null, ok: null, checks: [], protectedChanges: [] };
        return;
      }
      case 'story.land': {
        const id = request.params.story;
        const integration = book.integration;
        if (book.landed[id] !== undefined) this.fail('landOnce', path, `${id} lands a second time`);
        if (integration?.story !== id) return this.fail('integrationGates', path, `${id} lands while the integration lane holds ${integration?.story ?? 'nothing'}`);
        if (integration.ok !== true) this.fail('integrationGates', path, `${id} lands without a clean rebase`);
        if (integration.protectedChanges.length > 0) this.fail('protect', path, `${id} lands a candidate that changes ${integration.protectedChanges.join(', ')}`);
        const gates = sameGates(this.rules, this.story(id), integration.checks);
        if (gates !== null) this.fail('integrationGates', path, `${id} lands: ${gates}`);
        if (request.params.from !== book.target) this.fail('integrationGates', path, `${id} lands from ${request.params.from}, the target is at ${book.target}`);
        if (request.params.candidate !== integration.rebased) this.fail('integrationGates', path, `${id} lands ${request.params.candidate}, the rebased candidate is ${String(integration.rebased)}`);
        return;
      }
      case 'candidate.reject': {
        const id = request.params.story;
        const integration = book.integration;
        if (integration?.story !== id) return this.fail('reject', path, `${id} is rejected while the integration lane holds ${integration?.story ?? 'nothing'}`);
        const failed = integration.checks.find((c) => c.passed === false);
        const want = integration.ok === false ? 'rebase' : integration.protectedChanges.length > 0 ? 'protect' : failed?.name;
        if (want === undefined) this.fail('reject', path, `${id} is rejected although its rebase and every gate so far passed`);
        else if (request.params.gate !== want) this.fail('reject', path, `${id}'s rejection names gate ${request.params.gate}, the oracle saw ${want} fail`);
        return;
      }
      case 'worktree.remove': {
        const id = request.params.story;
        if (book.landed[id] === undefined) this.fail('remove', path, `${id}'s worktree is removed before it landed`);
        else if (request.params.landed !== book.landed[id]) this.fail('remove', path, `${id}'s worktree is removed for ${request.params.landed}, it landed as ${book.landed[id]}`);
        return;
      }
      default:
        return;
    }
  }

  private onEvent(book: ParallelBook, event: MachineEvent, path: readonly MachineEvent[]): void {
    if (event.type === 'AGENT_RETRY') book.setback = {};
    if (['AGENT_RETRY', 'SET_MAX_ITERATIONS', 'BUDGET_RAISED', 'SET_PARALLEL'].includes(event.type)) return;
    const lane = (event as { lane?: string }).lane ?? '';
    const answered = book.outstanding[lane];
    const answers = answered !== undefined && (COMPLETION_EVENT[answered.kind] === event.type || (INTERRUPTION_EVENT as Record<string, string | null>)[answered.kind] === event.type
      || (event.type === 'LANE_INTERRUPTED' && LANE_INTERRUPTIBLE.has(answered.kind) && book.integration?.story !== lane));
    if (!answered || !answers) return this.fail('await', path, `${event.type} (lane ${lane || 'none'}) answers no outstanding request (${answered?.kind ?? 'none'})`);
    delete book.outstanding[lane];
    const turn = book.turns[lane];
    switch (event.type) {
      case 'AGENT_EXITED': {
        const classification = event.result.classification;
        if (this.rules.setbacks && (classification === 'rate-limited' || classification === 'auth-error')) book.setback[lane] = classification;
        if (this.rules.toolGate && (classification === 'tool-held' || classification === 'tool-ungated')) {
          book.setback[lane] = 'tool-held';
          const session = event.result.toolHold?.session;
          if (classification === 'tool-held' && session != null) book.resume[lane] = session;
        }
        return;
      }
      case 'BASELINE_CAPTURED':
        book.target = event.result.head?.sha ?? '';
        return;
      case 'NOTES_READ':
        if (turn) turn.notes = event.result.firstLine;
        return;
      case 'PROTECT_SCANNED': {
        const protect = this.rules.protect;
        if (!turn || protect === null) return;
        turn.owedRestore = restoreFor(protect.files, event.result.files.filter((file) => covers(protect.patterns, file.path)));
        if (turn.owedRestore !== null) turn.violation = true;
        return;
      }
      case 'LANE_INTERRUPTED':
        // the turn starts over from its restore step: its worktree is fresh
        book.guarded[lane] = false;
        if (turn) book.turns[lane] = { ...turn, decided: false, committed: false };
        return;
      case 'BOUNDARY_SCANNED':
        if (turn) turn.violation = event.result.changed.some((p) => this.rules.noModify.some((n) => p.startsWith(n)));
        book.touched[lane] = event.result.changed;
        return;
      case 'CHECK_FINISHED': {
        const checks = book.integration?.story === lane ? book.integration.checks : turn?.checks ?? [];
        const check = checks.find((c) => c.passed === null);
        if (check) check.passed = event.result.outcome === 'exited' && event.result.exitCode === 0;
        return;
      }
      case 'FILE_WRITTEN': {
        // the turn's guard-results.md: the turn is decided
        if (!turn || book.integration?.story === lane) return;
        turn.decided = true;
        const passed = turn.notes === 'STATUS: DONE' && !turn.violation && sameGates(this.rules, this.story(lane), turn.checks) === null;
        if (passed) return;
        if (turn.notes === 'STATUS: DONE') this.attempt(book, lane);
        if (book.blocked.includes(lane) || book.turnCount >= this.rules.max) this.park(book, lane);
        else this.nextTurn(book, lane, path);
        return;
      }
      case 'CANDIDATE_REBASED': {
        const changed = event.result.ok && this.rules.protect !== null ? (event.result.changed ?? []).filter((file) => covers(this.rules.protect?.patterns ?? [], file)) : [];
        if (book.integration) book.integration = { ...book.integration, ok: event.result.ok, rebased: event.result.ok ? event.result.sha : null, protectedChanges: changed };
        return;
      }
      case 'STORY_LANDED':
        book.landed[lane] = event.result.sha;
        book.target = event.result.sha;
        book.integration = null;
        return;
      case 'CANDIDATE_REJECTED':
        book.integration = null;
        this.attempt(book, lane);
        // a rejected story goes back to the scheduler (`laneRequeue`); before, it went again at once in its lane, unless blocked or out of turns
        if (this.rules.requeue || book.blocked.includes(lane) || book.turnCount >= this.rules.max) this.park(book, lane);
        return;
      case 'WORKTREE_REMOVED':
        this.park(book, lane);
        return;
      default:
        return;
    }
  }

  /** One step: feed `event`, book the requests it emitted, check the end. */
  step(state: { snapshot: AnyMachineSnapshot; book: ParallelBook }, path: readonly MachineEvent[], machine: AnyStateMachine) {
    const event = path.at(-1) as MachineEvent;
    const book = structuredClone(state.book);
    this.onEvent(book, event, path);
    const [snapshot, actions] = transition(machine, state.snapshot, event);
    this.book(book, requestsOf(actions), path, snapshot);
    return { snapshot, book };
  }

  book(book: ParallelBook, requests: EffectRequest[], path: readonly MachineEvent[], snapshot: AnyMachineSnapshot): void {
    for (const request of requests) {
      this.onRequest(book, request, path);
      if (COMPLETION_EVENT[request.kind] === null) continue;
      const lane = (request.params as { lane?: string }).lane ?? '';
      if (book.outstanding[lane]) this.fail('await', path, `lane ${lane || 'none'} has ${book.outstanding[lane]?.kind} outstanding and requests ${request.kind}`);
      book.outstanding[lane] = request;
    }
    if (snapshot.status === 'done' && !book.ended) this.end(book, snapshot, path);
  }

  private end(book: ParallelBook, snapshot: AnyMachineSnapshot, path: readonly MachineEvent[]): void {
    book.ended = true;
    const open = Object.keys(book.outstanding);
    if (open.length > 0) this.fail('end', path, `the run ended with requests outstanding in lanes ${open.join(', ')}`);
    if (book.lanes.length > 0 || book.integration !== null) this.fail('end', path, `the run ended while ${[...book.lanes, book.integration?.story].filter(Boolean).join(', ')} still held a lane`);
    const output = snapshot.output as { exitCode: number; reason: string };
    const allLanded = this.rules.stories.every((s) => book.landed[s.id] !== undefined || s.passes);
    const startable = this.rules.stories.some((s) => !s.passes && this.ready(book, s)) && !this.stopping(book);
    const want = allLanded ? 'stories-done'
      : book.turnCount >= this.rules.max ? 'max-iterations'
        : startable ? 'no end yet'
          : book.blocked.length > 0 ? 'story-blocked' : 'stories-blocked';
    if (output.reason !== want || output.exitCode !== (want === 'stories-done' ? 0 : 1)) this.fail('end', path, `the run ended ${JSON.stringify(output)}, the oracle expects ${want}`);
  }
}

/**
 * Replay every path through `machine` from `input` with the parallel oracle; failures name the
 * invariant and the path. `oracle` is the input the oracle reads the user's rules from (default:
 * `input`): a machine given other rules than the user wrote must be caught.
 */
export function checkParallelPaths(
  machine: AnyStateMachine, input: WorkInput, paths: ReadonlyArray<readonly MachineEvent[]>, describe: (path: readonly MachineEvent[]) => string, oracle: WorkInput = input,
): { failures: string[]; folded: number } {
  const rules = rulesOf(oracle);
  const ledger = new Ledger(rules, describe);
  const [snapshot, actions] = initialTransition(machine, input);
  const landed = Object.fromEntries(rules.stories.filter((s) => s.passes).map((s) => [s.id, 'before the run']));
  const book: ParallelBook = {
    landed, blocked: [], attempts: {}, touched: structuredClone({ ...rules.touchedBefore }), lanes: [], turns: {}, integration: null, target: '', outstanding: {}, turnCount: 0, turnOf: {},
    setback: {}, resume: {}, guarded: {}, ended: false,
  };
  ledger.book(book, requestsOf(actions), [], snapshot);
  const folded = replayAll<MachineEvent, { snapshot: AnyMachineSnapshot; book: ParallelBook }>(paths, { snapshot, book }, (state, path) => ledger.step(state, path, machine));
  return { failures: ledger.failures, folded };
}
