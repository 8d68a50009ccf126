// One-line descriptions of an effect request and of its journaled result, for replay views.
import type { Config } from '../../config/types.js';
import type { EffectKind, EffectRequest, EffectResult, Usage } from '../../machines/effects.js';
import { pricedUsage } from '../../machines/price-usage.js';

/** What was asked, short: `agent.spawn worker #2`, `check.run guard tests`, `file.write guard-results.md`. */
export function describeRequest(request: EffectRequest): string {
  switch (request.kind) {
    case 'agent.spawn':
      return `agent.spawn ${request.params.role} #${request.params.iteration}`;
    case 'check.run':
      return `check.run ${request.params.kind} ${request.params.name}`;
    case 'acceptance.check':
      return `acceptance.check ${request.params.criteria.map((criterion) => criterion.name).join(', ')}`;
    case 'file.write':
      return `file.write ${request.params.file}`;
    case 'hook.fire':
      return `hook.fire ${request.params.event}`;
    case 'commit.create':
      return `commit.create #${request.params.iteration}`;
    case 'notes.read':
      return `notes.read ${request.params.file}`;
    default:
      // Kinds without a description of their own (new lifecycles' effects) show the file they touch, if any.
      return describeGeneric(request);
  }
}

function describeGeneric(request: EffectRequest): string {
  const file = (request.params as { file?: unknown }).file;
  return typeof file === 'string' ? `${request.kind} ${file}` : request.kind;
}

/** What came of it, short: `exit 0`, `FAIL (exit 1)`, `STATUS: DONE`, `2 changed`, `committed 1a2b3c4d5e`. */
export function describeResult(request: EffectRequest, result: EffectResult<EffectKind>): string {
  switch (request.kind) {
    case 'agent.spawn': {
      const r = result as EffectResult<'agent.spawn'>;
      return r.outcome === 'exited' ? `exit ${r.exitCode ?? '?'}` : r.outcome;
    }
    case 'check.run': {
      const r = result as EffectResult<'check.run'>;
      const passed = r.outcome === 'exited' && r.exitCode === 0;
      const how = r.outcome === 'exited' ? `exit ${r.exitCode ?? '?'}` : r.outcome;
      return request.params.kind === 'periodic' ? how : passed ? 'pass' : `FAIL (${how})`;
    }
    case 'acceptance.check': {
      const r = result as EffectResult<'acceptance.check'>;
      if (r.outcome === 'refused') return `could not run (${r.reason})`;
      const failed = r.criteria.filter((criterion) => criterion.status === 'failed').map((criterion) => criterion.name);
      return `${r.status === 'passed' ? 'pass' : `FAIL${failed.length > 0 ? ` (${failed.join(', ')})` : ''}`}, report ${r.report.sha256.slice(0, 10)}`;
    }
    case 'notes.read':
      return (result as EffectResult<'notes.read'>).firstLine ?? '(no notes)';
    case 'boundary.scan': {
      const r = result as EffectResult<'boundary.scan'>;
      const moved = r.head !== undefined && (r.head.lost !== null || r.head.branch !== request.params.head?.branch);
      return `${r.changed.length} changed${moved ? ', HEAD moved' : ''}`;
    }
    case 'baseline.capture': {
      const r = result as EffectResult<'baseline.capture'>;
      return `${Object.keys(r.specFiles).length} spec files, tree ${r.tree.slice(0, 10)}`;
    }
    case 'spec.restore': {
      const r = result as EffectResult<'spec.restore'>;
      const displaced = Object.keys(r.displaced).length;
      return `${r.restored.length} restored${displaced > 0 ? `, ${displaced} displaced` : ''}`;
    }
    case 'file.write':
      return `written ${(result as EffectResult<'file.write'>).sha256.slice(0, 10)}`;
    case 'hook.fire':
      return (result as EffectResult<'hook.fire'>).started ? 'started' : 'did not start';
    case 'commit.create': {
      const sha = (result as EffectResult<'commit.create'>).sha;
      return sha ? `committed ${sha.slice(0, 10)}` : 'nothing to commit';
    }
    default: {
      const text = JSON.stringify(result);
      return text.length > 60 ? `${text.slice(0, 57)}...` : text;
    }
  }
}

/** How long the effect said it took, when its result carries a duration (agents, checks). */
export function reportedDuration(result: unknown): number | null {
  const value = (result as { durationMs?: unknown } | null)?.durationMs;
  return typeof value === 'number' ? value : null;
}

/**
 * An agent call's usage as every surface counts it (priced by the run's `price` directives when its
 * CLI gave no cost); null for other effects or unknown usage.
 */
export function reportedUsage(request: EffectRequest, result: unknown, prices: Config['prices']): Usage | null {
  if (request.kind !== 'agent.spawn') return null;
  return pricedUsage((result as EffectResult<'agent.spawn'>).usage, prices);
}
