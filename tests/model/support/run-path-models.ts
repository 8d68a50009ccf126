// One machine's models (graph configs + samples), generated into paths by the graph support of the
// pure tests (tests/machines/support/work-graph.ts), planned into world steps, executed for real,
// and measured: which paths ran to their end, and which states and transitions the executed
// (real, journaled) events took.
import type { AnyStateMachine } from 'xstate';
import type { Config } from '../../../config/types.js';
import type { MachineEvent } from '../../../machines/effect-events.js';
import type { Lifecycle } from '../../../machines/lifecycles/registry.js';
import type { WorkInput } from '../../../machines/work/work-context.js';
import { modeTemplates } from '../../../cli/canon.js';
import { coverageOf, type Coverage } from '../../machines/support/transition-coverage.js';
import { transitionPaths, type GraphModel } from '../../machines/support/work-graph.js';
import { historyPaths } from './history-paths.js';
import { executePlan, type ExecutionOptions, type ExecutionReport } from './execute-plan.js';
import { planNodes, planWorld, type PlanNode, type PlanOptions } from './world-plan.js';
import { AGENT_COMMAND, checkCommand } from './world-script.js';

/**
 * A graph model to execute: its transition paths, and with `histories` its simple paths too;
 * `files` the model's own files in its template world (project-relative: its prd.yaml, a context
 * layer), `plan` what its outside inputs need (support/world-plan.ts), `planFile` the plan file its
 * worker scribbles on when it is not the suite's (null: none besides protocol.md).
 */
export type ExecutionModel = GraphModel & { histories?: boolean; files?: Record<string, string>; plan?: PlanOptions; planFile?: string | null };

/** What executing one model found. */
export interface ModelResult {
  /** paths planned (generated paths whose outside inputs fit where they come) */
  paths: number;
  /** generated paths left out because an outside input could not happen where it comes */
  unfit: number;
  /** paths whose every step ran for real and passed every check */
  executed: number;
  /** trie nodes (distinct world steps) */
  steps: number;
  report: ExecutionReport;
  coverage: Coverage;
  ms: number;
}

/** The model's config with the scripted agent, checks that read their outcome from the side folder, and hooks that only log. */
export function realInput(input: WorkInput, loopDir: string): WorkInput {
  const c = input.config;
  const scripted = <T extends { name: string; command: string }>(list: T[]): T[] => list.map((item) => ({ ...item, command: checkCommand(item.name) }));
  const config: Config = {
    ...c,
    agent: { kind: 'cmd', command: AGENT_COMMAND },
    guards: scripted(c.guards), periodics: scripted(c.periodics), guardAfters: scripted(c.guardAfters), accepts: scripted(c.accepts),
    hooks: c.hooks.map((h) => ({ ...h, command: `echo ${h.event} >> ../side/hooks.log` })),
  };
  delete config.judgeAgent;
  delete config.scoperAgent;
  return { ...input, config, loopDir, specFiles: modeTemplates(c.mode)?.spec ?? input.specFiles };
}

/** The real events from the start to every executed node where a path ends (prefixes share their event objects). */
function executedPaths(root: PlanNode): MachineEvent[][] {
  const out: MachineEvent[][] = [];
  const visit = (node: PlanNode, prefix: MachineEvent[]): void => {
    if (!node.executed) return;
    const here = node.real ? [...prefix, node.real] : prefix;
    if (node.ends > 0 || node.children.size === 0) out.push(here);
    for (const child of node.children.values()) visit(child, here);
  };
  visit(root, []);
  return out;
}

/** Generate, plan and execute one model. */
export async function runPathModel(
  lifecycle: Lifecycle,
  model: ExecutionModel,
  world: Pick<ExecutionOptions, 'template' | 'scratch' | 'planFile' | 'setClock' | 'runs' | 'firstFailureOnly'>,
): Promise<ModelResult> {
  const began = performance.now();
  const machine: AnyStateMachine = lifecycle.machine;
  const paths = [...transitionPaths(machine, model).paths, ...(model.histories === true ? historyPaths(machine, model) : [])];
  const names = new Map(Object.entries(model.samples).map(([name, sample]) => [sample.event, name]));
  const input = realInput(model.input, world.template.loopDir);
  const { root, planned } = planWorld(machine, input, paths, names, model.plan);
  const report = await executePlan(root, { ...world, ...(model.planFile !== undefined ? { planFile: model.planFile } : {}), lifecycle, input });
  const nodes = planNodes(root);
  return {
    paths: planned,
    unfit: paths.length - planned,
    executed: nodes.reduce((n, node) => n + (node.executed ? node.ends : 0), 0),
    steps: nodes.length - 1,
    report,
    coverage: coverageOf(input, executedPaths(root), machine),
    ms: Math.round(performance.now() - began),
  };
}
