// The bookkeeper for the stories machine (DESIGN §8): an oracle that never reads the machine's
// context. It follows one replayed path from the requests the machine emits and the events fed
// back, keeps its own account of which story passed, which is blocked and why, and names the
// invariant every wrong step breaks.
import { initialTransition, transition, type AnyMachineSnapshot, type AnyStateMachine } from 'xstate';
import { lacksCriteria, type Story } from '../../../config/prd/story.js';
import { awaitsEvent, type MachineEvent } from '../../../machines/effect-events.js';
import { effectSchemas, type EffectRequest } from '../../../machines/effects.js';
import type { WorkInput } from '../../../machines/work/work-context.js';
import { requestsOf } from './loop-driver.js';
import { replayAll } from './replay-paths.js';

export const STORY_INVARIANT = {
  await: 'one outstanding request at a time; none after the end',
  schema: 'every request’s params pass its zod schema',
  select: '§8 each worker call works on the ready story (not passed, not blocked, every dependency passed) with the lowest priority, then id',
  stopLine: '§8 Stop-the-Line: a selected story with no acceptance criteria holds the run before any agent call, naming the story',
  checks: '§8 per-story gates: after a clean boundary the guards run, then exactly the story’s own `check` commands, in order, then (runs that record `storyJourneys`) its `journey:` checks as one acceptance check',
  judge: '§8 with `review on` a story whose worker said DONE and whose checks passed is judged before it passes; with review off never',
  passOnly: '§8 story.pass is requested only for the current story, only after DONE, a clean boundary, every check passed and (review on) a PASS',
  passAlways: '§8 a story that passed every gate gets its story.pass (feat(<id>): <title>) before the next worker call or the end',
  passOnce: 'no story is passed twice',
  attempts: '§8 only DONE claims that fail a gate count; max-story-attempts of them, or the same failure three times in a row, block the story',
  blocked: '§8 a blocked story is never worked on again; with on-story-blocked stop the run ends at once (exit 1)',
  end: '§8 the run exits 0 exactly when every story passed, and ends only when it must (all passed, blocked, nothing ready, or the cap)',
  respec: '§8/spec 1.1 an edit of prd.yaml journaled while a spec restore was outstanding (its request names the old file) is followed by another restore, with the edit, before anything else (runs that restore after calls)',
} as const;
type Name = keyof typeof STORY_INVARIANT;

interface Facts {
  story: string;
  iteration: number;
  notes: string | null | undefined;
  violation: boolean;
  /** `engine`: run by the check engine (`acceptance.check`), not handed to `sh` */
  checks: Array<{ name: string; command: string; passed: boolean | null; engine?: true }>;
  judged: boolean;
  verdict: string | null | undefined;
  passRequested: boolean;
}

/** What the oracle knows at one step of one path. */
export interface StoryBook {
  /** prd.yaml's stories as the user wrote them (changed between runs by STORIES_CHANGED) */
  stories: Story[];
  passed: string[];
  attempts: Record<string, number>;
  streak: Record<string, { fingerprint: string; repeats: number }>;
  blocked: string[];
  facts: Facts | null;
  outstanding: EffectRequest[];
  iterations: number;
  /** the cap, as the user set it (yoke.conf, then `yoke run --max-iterations`) */
  max: number;
  ended: boolean;
  /** the prd.yaml blob a restore must put back before anything else: an edit arrived while a restore was outstanding */
  restoreOwed?: string | null;
}

/** The rules of the run the oracle reads from the input (what the user wrote), never from the machine. */
interface Rules {
  /** DESIGN §16: the protected files' baseline as the run started (an edit is a failed gate, like a boundary violation) */
  protectedFiles: string | null;
  guards: readonly string[];
  review: boolean;
  skip: boolean;
  maxAttempts: number;
  noModify: readonly string[];
  /** spec files restored right after every agent call too (the run's input) */
  restoresAfterCalls: boolean;
  /** the declared journeys a story's `journey:<name>` check runs through the check engine (none in runs journaled before `storyJourneys`) */
  journeys: readonly string[];
}

function rulesOf(input: WorkInput): Rules {
  const c = input.config;
  return {
    protectedFiles: input.protection ? JSON.stringify(input.protection.files) : null,
    guards: c.guards.map((g) => g.name), review: c.review === true, skip: c.onStoryBlocked === 'skip',
    maxAttempts: c.maxStoryAttempts ?? 3, noModify: c.noModify, restoresAfterCalls: input.restoresAfterCalls === true,
    journeys: input.storyJourneys === true ? (c.journeys ?? []).map((journey) => journey.name) : [],
  };
}

/** The oracle's own selection: ready stories by (priority, none last), then id. */
export function expectedStory(book: Pick<StoryBook, 'stories' | 'passed' | 'blocked'>): Story | 'all-passed' | 'none' {
  const passed = new Set(book.passed);
  if (book.stories.every((s) => passed.has(s.id))) return 'all-passed';
  const ready = book.stories.filter((s) => !passed.has(s.id) && !book.blocked.includes(s.id) && s.dependsOn.every((d) => passed.has(d)));
  ready.sort((a, b) => (a.priority ?? Infinity) - (b.priority ?? Infinity) || (a.id < b.id ? -1 : 1));
  return ready[0] ?? 'none';
}

function gatesPassed(rules: Rules, facts: Facts): boolean {
  return facts.notes === 'STATUS: DONE' && !facts.violation && facts.checks.every((c) => c.passed === true)
    && (!rules.review || (facts.judged && facts.verdict === 'VERDICT: PASS'));
}

/** What a failed gate looked like, for "the same failure three times" (the oracle's own rendering). */
function fingerprintOf(facts: Facts): string {
  return JSON.stringify([facts.violation, facts.checks.filter((c) => c.passed === false).map((c) => c.name), facts.judged ? facts.verdict : null]);
}

class Ledger {
  readonly failures: string[] = [];
  constructor(private readonly rules: Rules, private readonly describe: (path: readonly MachineEvent[]) => string) {}

  /** Does this `check` run a declared journey through the check engine (rather than `sh`)? */
  private runsJourney(check: string): boolean {
    const trimmed = check.trim();
    return trimmed.startsWith('journey:') && this.rules.journeys.includes(trimmed.slice('journey:'.length).trim());
  }

  private fail(name: Name, path: readonly MachineEvent[], detail: string): void {
    this.failures.push(`${STORY_INVARIANT[name]}\n  ${detail}\n  path: ${this.describe(path)}`);
  }

  /** Close the current iteration: a failed DONE claim counts, and may block its story. */
  private close(book: StoryBook, path: readonly MachineEvent[]): void {
    const facts = book.facts;
    book.facts = null;
    if (!facts) return;
    const passed = gatesPassed(this.rules, facts);
    if (passed && !facts.passRequested) this.fail('passAlways', path, `story ${facts.story} passed every gate in iteration ${facts.iteration} but no story.pass was requested`);
    if (passed || facts.notes !== 'STATUS: DONE') return;
    const fingerprint = fingerprintOf(facts);
    const before = book.streak[facts.story];
    const repeats = before?.fingerprint === fingerprint ? before.repeats + 1 : 1;
    book.streak[facts.story] = { fingerprint, repeats };
    const attempts = (book.attempts[facts.story] ?? 0) + 1;
    book.attempts[facts.story] = attempts;
    if (attempts >= this.rules.maxAttempts || repeats >= 3) book.blocked.push(facts.story);
  }

  private onRequest(book: StoryBook, request: EffectRequest, path: readonly MachineEvent[]): void {
    const schema = effectSchemas[request.kind].params.safeParse(request.params);
    if (!schema.success) this.fail('schema', path, `${request.kind}: ${schema.error.message}`);
    if (book.ended) this.fail('await', path, `${request.kind} requested after the end`);
    if (book.restoreOwed != null) {
      if (request.kind === 'spec.restore' && request.params.specFiles['prd.yaml'] === book.restoreOwed) book.restoreOwed = null;
      else if (request.kind !== 'spec.restore') this.fail('respec', path, `${request.kind} requested before prd.yaml ${book.restoreOwed.slice(0, 8)} was restored again`);
    }
    switch (request.kind) {
      case 'agent.spawn': {
        const p = request.params;
        if (p.role === 'judge') {
          if (!this.rules.review) this.fail('judge', path, 'a judge was called with review off');
          const f = book.facts;
          if (!f || f.notes !== 'STATUS: DONE' || f.violation || f.checks.some((c) => c.passed !== true)) this.fail('judge', path, `the judge was called for ${JSON.stringify(f)}`);
          else f.judged = true;
          return;
        }
        if (book.facts && p.iteration !== book.facts.iteration) this.close(book, path);
        if (book.facts) {
          // the same iteration's call again (after an interruption or a setback): its facts start over
          book.facts = { ...book.facts, notes: undefined, violation: false, checks: [], judged: false, verdict: undefined };
          return;
        }
        const stopAfterBlock = !this.rules.skip && book.blocked.length > 0;
        if (stopAfterBlock) this.fail('blocked', path, `a worker call after story ${book.blocked.join(', ')} was blocked with on-story-blocked stop`);
        const expected = expectedStory(book);
        if (typeof expected === 'string') this.fail('end', path, `a worker call although the oracle sees ${expected}`);
        else if (p.story !== expected.id) this.fail('select', path, `the worker works on ${String(p.story)}, the oracle selects ${expected.id}`);
        else if (lacksCriteria(expected)) this.fail('stopLine', path, `the worker was called on ${expected.id}, which has no acceptance criteria`);
        if (p.story !== undefined && book.blocked.includes(p.story)) this.fail('blocked', path, `blocked story ${p.story} is worked on again`);
        book.iterations = p.iteration;
        book.facts = { story: p.story ?? '?', iteration: p.iteration, notes: undefined, violation: false, checks: [], judged: false, verdict: undefined, passRequested: false };
        return;
      }
      case 'check.run': {
        const f = book.facts;
        if (!f) return this.fail('checks', path, 'a check with no story being worked on');
        if (f.violation) this.fail('checks', path, 'a check ran after a boundary violation');
        f.checks.push({ name: request.params.name, command: request.params.command, passed: null });
        return;
      }
      case 'acceptance.check': {
        const f = book.facts;
        if (!f) return this.fail('checks', path, 'an acceptance check with no story being worked on');
        if (f.violation) this.fail('checks', path, 'an acceptance check ran after a boundary violation');
        for (const criterion of request.params.criteria) {
          f.checks.push({ name: criterion.name, command: criterion.kind === 'journey' ? `journey:${criterion.journey ?? criterion.name}` : criterion.command, passed: null, engine: true });
        }
        return;
      }
      case 'story.pass': {
        const f = book.facts;
        const id = request.params.story;
        if (book.passed.includes(id)) this.fail('passOnce', path, `story ${id} passed a second time`);
        if (!f || f.story !== id) this.fail('passOnly', path, `story.pass for ${id} while the oracle's current story is ${f?.story ?? 'none'}`);
        else if (!gatesPassed(this.rules, f)) this.fail('passOnly', path, `story.pass for ${id} with ${JSON.stringify(f)}`);
        else {
          const story = book.stories.find((s) => s.id === id);
          const names = f.checks.map((c) => c.name);
          // a story's nth `check` is named after its position among all its criteria (<id>#<n>); its journeys run after its commands
          const own = (story?.acceptance ?? []).flatMap((c, i) => (c.check === undefined ? [] : [{ name: `${id}#${i + 1}`, check: c.check, journey: this.runsJourney(c.check) }]));
          const ordered = [...own.filter((c) => !c.journey), ...own.filter((c) => c.journey)];
          const want = [...this.rules.guards, ...ordered.map((c) => c.name)];
          if (JSON.stringify(names) !== JSON.stringify(want)) this.fail('checks', path, `checks ${JSON.stringify(names)}, the story and guards ask for ${JSON.stringify(want)}`);
          const commands = f.checks.slice(this.rules.guards.length).map((c) => [c.command, c.engine === true]);
          const wantCommands = ordered.map((c) => [c.check, c.journey]);
          if (JSON.stringify(commands) !== JSON.stringify(wantCommands)) this.fail('checks', path, `story checks ran ${JSON.stringify(commands)}, prd.yaml says ${JSON.stringify(wantCommands)}`);
          if (story && request.params.message !== `feat(${id}): ${story.title}`) this.fail('passAlways', path, `the commit subject is ${request.params.message}`);
          f.passRequested = true;
          book.passed.push(id);
        }
        return;
      }
      default:
        return;
    }
  }

  private onEvent(book: StoryBook, event: MachineEvent, path: readonly MachineEvent[]): void {
    const external = ['AGENT_RETRY', 'SET_MAX_ITERATIONS', 'BUDGET_RAISED', 'STORIES_CHANGED'].includes(event.type);
    if (event.type === 'SET_MAX_ITERATIONS') book.max = event.max;
    if (event.type === 'STORIES_CHANGED') {
      // the user's edit of prd.yaml: the new list; a passed story whose criteria changed must pass again
      book.stories = event.stories;
      const restoring = book.outstanding[0];
      if (this.rules.restoresAfterCalls && event.prdBlob !== null && restoring?.kind === 'spec.restore' && restoring.params.specFiles['prd.yaml'] !== event.prdBlob) book.restoreOwed = event.prdBlob;
      book.passed = book.passed.filter((id) => !event.reopened.includes(id) && event.stories.some((s) => s.id === id));
      for (const story of event.stories) if (story.passes && !book.passed.includes(story.id)) book.passed.push(story.id);
    }
    if (external) return;
    const answered = book.outstanding.shift();
    if (!answered) return this.fail('await', path, `${event.type} answers no request`);
    const f = book.facts;
    switch (event.type) {
      case 'NOTES_READ':
        if (f) f.notes = event.result.firstLine;
        return;
      case 'BOUNDARY_SCANNED':
        if (f) f.violation = event.result.changed.some((p) => this.rules.noModify.some((n) => p.startsWith(n)));
        return;
      case 'PROTECT_SCANNED':
        if (!f || JSON.stringify(event.result.files) === this.rules.protectedFiles) return;
        // after the judge's call (protectAll): the judge changed a protected file, so its verdict is a FAIL whatever it wrote
        if (f.judged) f.verdict = 'overruled';
        else f.violation = true;
        return;
      case 'CHECK_FINISHED': {
        const check = f?.checks.find((c) => c.passed === null);
        if (check) check.passed = event.result.outcome === 'exited' && event.result.exitCode === 0;
        return;
      }
      case 'ACCEPTANCE_CHECKED':
        for (const check of f?.checks ?? []) if (check.passed === null) check.passed = event.result.outcome === 'completed' && event.result.status === 'passed';
        return;
      case 'FILE_INSPECTED':
        if (f?.judged && answered.kind === 'file.inspect' && answered.params.file === 'verdict.md') f.verdict = event.result.firstLine;
        return;
      default:
        return;
    }
  }

  /** One step: feed `event`, book the requests it emitted, check the end. */
  step(state: { snapshot: AnyMachineSnapshot; book: StoryBook }, path: readonly MachineEvent[], machine: AnyStateMachine) {
    const event = path.at(-1) as MachineEvent;
    const book = structuredClone(state.book);
    this.onEvent(book, event, path);
    const [snapshot, actions] = transition(machine, state.snapshot, event);
    const requests = requestsOf(actions);
    // an outside input while held (prd.yaml fixed, a budget raised) leaves the hold to the next `yoke run`'s AGENT_RETRY
    const outside = ['STORIES_CHANGED', 'BUDGET_RAISED', 'SET_MAX_ITERATIONS'].includes(event.type);
    this.book(book, requests, path, snapshot, outside);
    return { snapshot, book };
  }

  book(book: StoryBook, requests: EffectRequest[], path: readonly MachineEvent[], snapshot: AnyMachineSnapshot, outside = false): void {
    for (const request of requests) {
      this.onRequest(book, request, path);
      if (awaitsEvent(request)) book.outstanding.push(request);
    }
    if (book.outstanding.length > 1) this.fail('await', path, `${book.outstanding.length} requests outstanding: ${book.outstanding.map((r) => r.kind).join(', ')}`);
    if (snapshot.status === 'done' && !book.ended) this.end(book, snapshot, path);
    if (!outside && snapshot.status === 'active' && book.outstanding.length === 0 && snapshot.hasTag('paused')) this.held(book, snapshot, path);
  }

  private held(book: StoryBook, snapshot: AnyMachineSnapshot, path: readonly MachineEvent[]): void {
    const detail = (snapshot.context as { holdDetail?: string | null }).holdDetail ?? '';
    if (!detail.includes('acceptance criteria')) return; // an agent or budget hold, not the line
    this.close(book, path);
    const expected = expectedStory(book);
    if (typeof expected === 'string' || !lacksCriteria(expected)) this.fail('stopLine', path, `the line stopped (${detail}) but the oracle selects ${typeof expected === 'string' ? expected : expected.id}`);
    else if (detail !== `story ${expected.id} has no acceptance criteria`) this.fail('stopLine', path, `the hold says "${detail}" for ${expected.id}`);
  }

  private end(book: StoryBook, snapshot: AnyMachineSnapshot, path: readonly MachineEvent[]): void {
    this.close(book, path);
    book.ended = true;
    const output = snapshot.output as { exitCode: number; reason: string };
    const expected = expectedStory(book);
    const blockedStop = !this.rules.skip && book.blocked.length > 0;
    const capped = book.iterations >= book.max;
    const want = expected === 'all-passed' ? 'stories-done' : blockedStop ? 'story-blocked' : capped ? 'max-iterations' : expected === 'none' ? 'stories-blocked' : 'no end yet';
    if (output.reason !== want || output.exitCode !== (want === 'stories-done' ? 0 : 1)) this.fail('end', path, `the run ended ${JSON.stringify(output)}, the oracle expects ${want}`);
  }
}

/**
 * Replay every path through `machine` from `input` with the stories oracle; failures name the
 * invariant and the path. `oracle` is the input the oracle reads the user's rules from (default:
 * `input`): a machine given other rules than the user wrote must be caught.
 */
export function checkStoryPaths(
  machine: AnyStateMachine, input: WorkInput, paths: ReadonlyArray<readonly MachineEvent[]>, describe: (path: readonly MachineEvent[]) => string, oracle: WorkInput = input,
): { failures: string[]; folded: number } {
  const ledger = new Ledger(rulesOf(oracle), describe);
  const [snapshot, actions] = initialTransition(machine, input);
  const book: StoryBook = { stories: [...(oracle.stories ?? [])], passed: [], attempts: {}, streak: {}, blocked: [], facts: null, outstanding: [], iterations: 0, max: oracle.config.maxIterations, ended: false };
  for (const story of oracle.stories ?? []) if (story.passes) book.passed.push(story.id);
  ledger.book(book, requestsOf(actions), [], snapshot);
  const folded = replayAll<MachineEvent, { snapshot: AnyMachineSnapshot; book: StoryBook }>(paths, { snapshot, book }, (state, path) => ledger.step(state, path, machine));
  return { failures: ledger.failures, folded };
}
