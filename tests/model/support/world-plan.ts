// Turns the graph's event paths into a trie of *world steps*: what the real world (agents, guards,
// the clock, the operator) must do so that the real runner journals each path's events in order.
//
// An event path says what yoke observed (NOTES_READ DONE after the worker's AGENT_EXITED), but
// the world must decide before the agent runs what it will leave behind. So every AGENT_EXITED is
// keyed by the agent's whole *action*, read ahead in the path up to the next agent call (the notes
// it writes, the paths it touches, the verdict, the scoper's files, the usage it reports); the
// events that follow from that action are keyed by their sample name. Two paths share a trie node
// exactly when the world did the same thing up to there, so a shared prefix is executed once.
import { initialTransition, transition, type AnyMachineSnapshot, type AnyStateMachine } from 'xstate';
import { awaitsEvent, COMPLETION_EVENT, type MachineEvent } from '../../../machines/effect-events.js';
import type { EffectRequest, EffectResult, Role } from '../../../machines/effects.js';
import type { WorkInput } from '../../../machines/work/work-context.js';
import { requestsOf } from '../../machines/support/loop-driver.js';

/** Events only the outside world journals (`yoke budget`, `yoke run --max-iterations`, `yoke run` after prd.yaml was edited), never an effect's result. */
export const EXTERNAL_EVENTS = new Set(['BUDGET_RAISED', 'SET_MAX_ITERATIONS', 'STORIES_CHANGED']);

/** Events the runner journals by itself when a drive starts (AGENT_RETRY: `yoke run` on a run held for its agent), never an effect's result. */
export const RESUME_EVENTS = new Set(['AGENT_RETRY']);

/** A judge that leaves verdict.md exactly as it was before the call. */
export const UNTOUCHED = '(untouched)';

/** What one agent call does to the workspace; every field the path leaves open gets a default. */
export interface AgentAction {
  role: Role;
  /** the AGENT_EXITED result the sample asks for (exit code, usage) */
  exit: EffectResult<'agent.spawn'>;
  /** worker: notes.md's first line (null: no notes.md) and the project paths that differ from the baseline afterwards */
  notes?: string | null;
  /** worker: notes.md's whole text, when a later read of it fixes more than the first line (see PlanOptions.exactNotes) */
  notesText?: string;
  changed?: string[];
  /** judge: what verdict.md holds afterwards (null: the judge removed it; 'untouched': the judge left the older verdict as it was) */
  verdict?: string | null;
  /** scoper: saga-notes.md's first line, and sub-plan.md's first line (null: blank) */
  sagaNotes?: string | null;
  subPlan?: string | null;
}

/** What the world does so that the runner journals one event. */
export type WorldStep =
  /** the runner's own handler produces it from the workspace as it is (restore, notes, scans, writes, commits) */
  | { kind: 'effect' }
  | { kind: 'agent'; action: AgentAction }
  /** the agent hangs and yoke is interrupted (SIGINT) while it runs; the resumed run journals the interruption */
  | { kind: 'interrupt'; role: Role }
  | { kind: 'check'; name: string; exitCode: number; excerpt: string }
  /** goal's acceptance check (the check engine): each criterion command's exit code and output */
  | { kind: 'acceptance'; criteria: Array<{ name: string; exitCode: number; excerpt: string }> }
  | { kind: 'clock'; now: number }
  /** journaled by the operator's command while no runner works */
  | { kind: 'external' }
  /** the user leaves `text` in .loop/prd.yaml while no runner works; the next `yoke run` journals what changed (STORIES_CHANGED) */
  | { kind: 'prd-edit'; text: string }
  /** journaled by the next runner itself as its drive starts (the run is held for its agent) */
  | { kind: 'resume' };

/** One node of the pure fold of a path prefix (shared by every path with that prefix). */
interface FoldNode {
  snapshot: AnyMachineSnapshot;
  /** requests the transition into this node emitted */
  emitted: EffectRequest[];
  /** requests not executed yet when this node is reached (what a resumed runner owes) */
  pending: EffectRequest[];
  /** the request this node's event answered (null at the root and for external events) */
  answered: EffectRequest | null;
  children: Map<MachineEvent, FoldNode>;
}

/** A node of the world trie: the event it expects, how the world produces it, and the pure fold there. */
export interface PlanNode {
  key: string;
  /** the sample event (null at the root) and its name */
  event: MachineEvent | null;
  name: string;
  step: WorldStep;
  answered: EffectRequest | null;
  /** the pure machine after this event (the path's state) */
  snapshot: AnyMachineSnapshot;
  emitted: EffectRequest[];
  pending: EffectRequest[];
  parent: PlanNode | null;
  children: Map<string, PlanNode>;
  /** how many generated paths end here */
  ends: number;
  /** filled by the executor: the event the real runner journaled here, and whether every check held */
  real?: MachineEvent;
  executed?: boolean;
}

/** The defaults of an agent call whose effects the path does not look at. */
function defaultAction(role: Role, exit: EffectResult<'agent.spawn'>): AgentAction {
  switch (role) {
    case 'worker':
      return { role, exit, notes: 'STATUS: IN_PROGRESS', changed: ['src/app.ts'] };
    case 'judge':
      return { role, exit, verdict: 'VERDICT: FAIL' };
    case 'scoper':
      return { role, exit, sagaNotes: 'STATUS: IN_PROGRESS', subPlan: '# Chunk: the parser' };
  }
}

/** What a model adds to planning its paths (every field optional: the loop, brute, saga and goal models need none). */
export interface PlanOptions {
  /** the prd.yaml text the user leaves behind, by the STORIES_CHANGED sample event it stands for */
  prdEdits?: ReadonlyMap<MachineEvent, string>;
  /**
   * Can the outside world produce `event` where the path feeds it (`before` is the machine just
   * before)? A path with an outside event that does not fit is left out: `yoke run` computes
   * STORIES_CHANGED from the run's own story list, so an edit journals only what it changes there.
   */
  fits?: (before: AnyMachineSnapshot, event: MachineEvent) => boolean;
  /**
   * The worker writes notes.md exactly as a later `file.read` of notes.md (before the next agent
   * call) reads it, so what yoke derives from the whole notes (a story's decision entry) is checked
   * byte for byte. The read must agree with the notes' first line the path has the worker leave.
   */
  exactNotes?: boolean;
}

/** Read ahead from an agent's exit to the next agent call: what the call must leave behind. */
function actionOf(role: Role, exit: EffectResult<'agent.spawn'>, later: ReadonlyArray<{ event: MachineEvent; fold: FoldNode }>, stampBefore: string | null, exactNotes: boolean): AgentAction {
  const action = defaultAction(role, exit);
  // Only the first look at each file after the call is the call's doing (a later look at
  // verdict.md, before the next judge, is the stamp of what this judge left).
  const seen = new Set<string>();
  const first = (what: string): boolean => !seen.has(what) && seen.add(what) !== undefined;
  for (const { event, fold } of later) {
    const answered = fold.answered;
    if (answered?.kind === 'agent.spawn') break;
    if (event.type === 'NOTES_READ' && role === 'worker' && first('notes')) action.notes = event.result.firstLine;
    if (event.type === 'BOUNDARY_SCANNED' && role === 'worker' && first('scan')) action.changed = [...event.result.changed];
    if (event.type === 'FILE_INSPECTED' && answered?.kind === 'file.inspect' && first(answered.params.file)) {
      const line = event.result.exists ? event.result.firstLine : null;
      if (answered.params.file === 'verdict.md' && role === 'judge') {
        // the same stamp as the look before the call: the judge did not write verdict.md at all
        const untouched = stampBefore !== null && event.result.stamp === stampBefore;
        action.verdict = untouched ? UNTOUCHED : event.result.exists ? (event.result.firstLine ?? '') : null;
      }
      if (answered.params.file === 'saga-notes.md' && role === 'scoper') action.sagaNotes = line;
      if (answered.params.file === 'sub-plan.md' && role === 'scoper') action.subPlan = event.result.blank ? null : line;
    }
  }
  if (exactNotes && role === 'worker') {
    const text = notesTextRead(later);
    if (text !== undefined) {
      const line = text === null ? null : ((text.split('\n', 1)[0] ?? '').trimEnd() || null);
      if (line !== action.notes) throw new Error(`a path reads notes.md as ${JSON.stringify(text)} after the worker left the first line ${JSON.stringify(action.notes)}`);
      if (text !== null) action.notesText = text;
    }
  }
  return action;
}

/**
 * The first `file.read` of notes.md after a worker call and before the next one (a judge between
 * them leaves notes.md alone), unless yoke resets the notes first; undefined when there is none.
 */
function notesTextRead(later: ReadonlyArray<{ event: MachineEvent; fold: FoldNode }>): string | null | undefined {
  for (const { event, fold } of later) {
    const answered = fold.answered;
    if (answered?.kind === 'agent.spawn' && answered.params.role === 'worker') return undefined;
    if (event.type === 'NOTES_RESET') return undefined;
    if (event.type === 'FILE_READ' && answered?.kind === 'file.read' && answered.params.file === 'notes.md') return event.result.content;
  }
  return undefined;
}

function foldChild(machine: AnyStateMachine, parent: FoldNode, event: MachineEvent): FoldNode {
  const known = parent.children.get(event);
  if (known) return known;
  const external = EXTERNAL_EVENTS.has(event.type) || RESUME_EVENTS.has(event.type);
  const answered = external ? null : (parent.pending.find((r) => awaitsEvent(r)) ?? null);
  if (!external) {
    const expected = answered ? COMPLETION_EVENT[answered.kind] : null;
    const fits = answered !== null && (event.type === expected || (event.type === 'AGENT_INTERRUPTED' && answered.kind === 'agent.spawn'));
    if (!fits) throw new Error(`${event.type} answers no outstanding request (${parent.pending.map((r) => r.kind).join(', ') || 'none'})`);
  }
  const [snapshot, actions] = transition(machine, parent.snapshot, event);
  const emitted = requestsOf(actions);
  const node: FoldNode = { snapshot, emitted, pending: external ? [...parent.pending, ...emitted] : emitted, answered, children: new Map() };
  parent.children.set(event, node);
  return node;
}

function stepOf(event: MachineEvent, answered: EffectRequest | null, later: ReadonlyArray<{ event: MachineEvent; fold: FoldNode }>, stampBefore: string | null, options: PlanOptions): WorldStep {
  const edit = options.prdEdits?.get(event);
  if (edit !== undefined) return { kind: 'prd-edit', text: edit };
  if (EXTERNAL_EVENTS.has(event.type)) return { kind: 'external' };
  if (RESUME_EVENTS.has(event.type)) return { kind: 'resume' };
  if (answered?.kind === 'agent.spawn') {
    if (event.type === 'AGENT_INTERRUPTED') return { kind: 'interrupt', role: answered.params.role };
    if (event.type === 'AGENT_EXITED') return { kind: 'agent', action: actionOf(answered.params.role, event.result, later, stampBefore, options.exactNotes === true) };
  }
  if (answered?.kind === 'check.run' && event.type === 'CHECK_FINISHED') {
    return { kind: 'check', name: answered.params.name, exitCode: event.result.exitCode ?? 1, excerpt: event.result.excerpt };
  }
  if (answered?.kind === 'acceptance.check' && event.type === 'ACCEPTANCE_CHECKED' && event.result.outcome === 'completed') {
    return { kind: 'acceptance', criteria: event.result.criteria.map((criterion) => ({ name: criterion.name, exitCode: criterion.exitCode ?? 1, excerpt: criterion.excerpt })) };
  }
  if (event.type === 'CLOCK_READ') return { kind: 'clock', now: event.result.now };
  return { kind: 'effect' };
}

function keyOf(name: string, step: WorldStep): string {
  if (step.kind === 'agent') return `${name} ${JSON.stringify(step.action)}`;
  return name;
}

/**
 * The world trie of `paths` (events from the graph's samples, `names` naming them), folded with
 * `input`, and how many paths it holds (those with an outside event that does not fit are left
 * out). Throws when a path's event answers nothing the machine asked for.
 */
export function planWorld(
  machine: AnyStateMachine, input: WorkInput, paths: readonly MachineEvent[][], names: ReadonlyMap<MachineEvent, string>, options: PlanOptions = {},
): { root: PlanNode; planned: number } {
  const [snapshot, actions] = initialTransition(machine, input);
  const emitted = requestsOf(actions);
  const foldRoot: FoldNode = { snapshot, emitted, pending: emitted, answered: null, children: new Map() };
  const root: PlanNode = { key: '', event: null, name: 'start', step: { kind: 'effect' }, answered: null, snapshot, emitted, pending: emitted, parent: null, children: new Map(), ends: 0 };
  let planned = 0;
  for (const path of paths) {
    const folds: FoldNode[] = [];
    let fold = foldRoot;
    let fits = true;
    for (const event of path) {
      if (options.fits && EXTERNAL_EVENTS.has(event.type) && !options.fits(fold.snapshot, event)) {
        fits = false;
        break;
      }
      fold = foldChild(machine, fold, event);
      folds.push(fold);
    }
    if (!fits) continue;
    planned += 1;
    let node = root;
    let stampBefore: string | null = null;
    path.forEach((event, i) => {
      const here = folds[i] as FoldNode;
      const later = path.slice(i + 1).map((e, j) => ({ event: e, fold: folds[i + 1 + j] as FoldNode }));
      const name = names.get(event) ?? event.type;
      const step = stepOf(event, here.answered, later, stampBefore, options);
      if (event.type === 'FILE_INSPECTED' && here.answered?.kind === 'file.inspect' && here.answered.params.file === 'verdict.md') stampBefore = event.result.stamp;
      const key = keyOf(name, step);
      let child = node.children.get(key);
      if (!child) {
        child = { key, event, name, step, answered: here.answered, snapshot: here.snapshot, emitted: here.emitted, pending: here.pending, parent: node, children: new Map(), ends: 0 };
        node.children.set(key, child);
      } else if (child.snapshot !== here.snapshot) {
        throw new Error(`world key ${key} stands for two different events`);
      }
      node = child;
    });
    node.ends += 1;
  }
  return { root, planned };
}

/** Every node of the trie, root first (depth first). */
export function planNodes(root: PlanNode): PlanNode[] {
  const out: PlanNode[] = [];
  const stack = [root];
  while (stack.length > 0) {
    const node = stack.pop() as PlanNode;
    out.push(node);
    stack.push(...node.children.values());
  }
  return out;
}

/** The sample names from the root to `node`, for failure messages. */
export function describeNode(node: PlanNode): string {
  const names: string[] = [];
  for (let n: PlanNode | null = node; n && n.parent; n = n.parent) names.unshift(n.name);
  return names.join(' → ') || 'the start';
}
