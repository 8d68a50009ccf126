// The suite every `tests/model/<machine>-paths.test.ts` runs: each model's paths executed for real
// (one test per model), then the coverage of the machine by the executed paths.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { LIFECYCLES, type Lifecycle } from '../../../machines/lifecycles/registry.js';
import { allStateNodes, allTransitions, missing } from '../../machines/support/transition-coverage.js';
import { makeTemplate, removeWorld, scratchRoot } from './model-world.js';
import { runPathModel, type ExecutionModel, type ModelResult } from './run-path-models.js';

/** The notice of spec.restore when it put spec files back (effects/handlers/spec-restore.ts). */
const SPEC_PUT_BACK = /^spec file\(s\) \.loop\/\S+(?:, \.loop\/\S+)* changed during the run; put back as the run holds them /;

/** A part of the machine no executed model takes on purpose: the ids it matches, and why (what proves it instead). */
export interface LeftOut {
  match: RegExp;
  reason: string;
}

/**
 * Protected acceptance (DESIGN §16): the worker's, judge's and scoper's protecting/unprotecting states, an
 * overruled judge's readingOverruled/overrulingVerdict, PROTECT_* and PROTECTION_REFRESHED.
 */
export const PROTECT_LEFT_OUT: LeftOut = {
  match: /[pP]rotecting|PROTECT|[oO]verrul/,
  reason: 'no executed model yet: a model would need the session\'s baseline gate (the world plans runs without one) and a world that '
    + 'hashes, keeps and restores protected files; a protect scan answers with the hash of what the agent wrote while the boundary scan '
    + 'sees the same edit, so the two samples must be paired where the graph explores them apart. The graph tests (with independent '
    + 'ledgers) cover every state on the pure machine, and tests/e2e/protect.test.ts runs each for real (restore, overrule, refusal, refresh)',
};

/** The gate's tool hold (`[agentToolHeld]`) and the hold on ungated calls (`[agentUngated]`), DESIGN §13. */
export const TOOL_HOLD_LEFT_OUT: LeftOut = {
  match: /\[agent(ToolHeld|Ungated)\]/,
  reason: 'not modelled here: the gate\'s tool hold and the hold on calls that went around the gate (DESIGN §13) are proven end to end by the real '
    + 'CLIs (tests/agents/tool-control-real-cli.test.ts: hold, answer, resume; tool-control-codex-gemini-real-cli.test.ts: calls that never asked the gate)',
};

/** The context layer's read before each agent call (DESIGN §9: workerContext/judgeContext/scoperContext, CONTEXT_READ). */
export const CONTEXT_LEFT_OUT: LeftOut = {
  match: /(worker|judge|scoper)Context\b|CONTEXT_READ/,
  reason: 'these models journal the layer the way runs before `inject` did (no read before a call); the graph tests and '
    + 'tests/scenarios/context-injection.test.ts cover it (the stories suite executes it)',
};

/** How one machine's suite runs. */
export interface MachineSuite {
  machine: 'loop' | 'brute' | 'saga' | 'goal' | 'stories';
  models: Record<string, ExecutionModel>;
  /** the plan file the worker scribbles on (restored by yoke like every spec file); null: none besides protocol.md */
  planFile: string | null;
  /** transitions no valid config can take, each with the reason (kept out of the coverage requirement) */
  unreachable?: Record<string, string>;
  /** parts of the machine left out of the coverage requirement by name (default: protection, the tool hold, the context read) */
  leftOut?: readonly LeftOut[];
}

/** Register the suite of `suite.machine`. */
export function describeExecutedPaths(suite: MachineSuite): void {
  const lifecycle = LIFECYCLES[suite.machine] as Lifecycle;
  describe(`${suite.machine}: every graph path executed against the real runner`, () => {
    const scratch = scratchRoot(`yoke-model-${suite.machine}-`);
    const results = new Map<string, ModelResult>();

    beforeAll(async () => {
      // The wall clock is the world's: a CLOCK_READ sample sets it (only Date is faked; timers stay real).
      vi.useFakeTimers({ toFake: ['Date'] });
      const shared = makeTemplate(scratch, suite.machine);
      for (const [name, model] of Object.entries(suite.models)) {
        // a model with files of its own (a prd.yaml, a context layer) starts from its own template
        const template = model.files ? makeTemplate(scratch, suite.machine, model.files, `${suite.machine}-${name}`) : shared;
        const result = await runPathModel(lifecycle, model, { template, scratch, planFile: suite.planFile, setClock: (now) => vi.setSystemTime(now) });
        results.set(name, result);
        const unfit = result.unfit > 0 ? ` (${result.unfit} more left out: an outside input that cannot happen there)` : '';
        console.info(`${suite.machine} ${name}: ${result.executed}/${result.paths} paths${unfit}, ${result.steps} world steps, ${result.report.drives} drives, ${result.report.copies} copies, ${result.ms} ms`);
      }
    }, 900_000);

    afterAll(() => {
      vi.useRealTimers();
      removeWorld(scratch);
    });

    for (const name of Object.keys(suite.models)) {
      it(`${name}: every path ran to its end, and after every step the state, the journal and the files matched the path`, () => {
        const result = results.get(name);
        expect(result, 'the model did not run').toBeDefined();
        if (!result) return;
        expect(result.report.failures.slice(0, 5)).toEqual([]);
        // the scripted worker scribbles spec files on purpose (step-checks.ts checks each restore): the restore saying so is expected
        expect(result.report.warnings.filter((warning) => !SPEC_PUT_BACK.test(warning))).toEqual([]);
        expect(result.executed).toBe(result.paths);
      });
    }

    it('coverage: every state node, transition and guarded alternative is taken by some executed path', () => {
      const union = (key: 'nodes' | 'types' | 'candidates') => new Set([...results.values()].flatMap((r) => [...r.coverage[key]]));
      // Left out by name (each with its reason in suite.leftOut), so anything else still fails this test.
      const leftOut = suite.leftOut ?? [PROTECT_LEFT_OUT, TOOL_HOLD_LEFT_OUT, CONTEXT_LEFT_OUT];
      const kept = (id: string): boolean => !leftOut.some((part) => part.match.test(id));
      const allNodes = allStateNodes(lifecycle.machine.root).map((n) => n.id);
      const all = allTransitions(lifecycle.machine);
      // an exception that names nothing of the machine any more is stale
      const stale = leftOut.filter((part) => ![...allNodes, ...all.candidates].some((id) => part.match.test(id))).map((part) => String(part.match));
      expect(stale, 'left-out parts that match nothing in the machine').toEqual([]);
      const unreachable = Object.keys(suite.unreachable ?? {});
      expect(missing(unreachable, new Set(all.candidates)), 'unreachable alternatives the machine does not have').toEqual([]);
      expect(missing(allNodes.filter(kept), union('nodes')), 'state nodes no executed path reaches').toEqual([]);
      expect(missing(all.types.filter(kept), union('types')), 'transitions no executed path takes').toEqual([]);
      expect(missing(all.candidates.filter(kept), union('candidates')), 'guarded alternatives no executed path takes').toEqual(unreachable);
    });
  });
}
