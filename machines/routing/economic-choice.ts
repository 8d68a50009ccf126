// `routing economic` (DESIGN §15, seed 002 ECONOMIC-ROUTING): from the latest complete sequences of
// each profile, the cost and time per accepted sequence, and the one profile the next run starts with.
// Pure: the ledger is an input, and the decision (with every figure it used) is journaled.
import type { Config, Profile } from '../../config/types.js';
import type { RoutingSequence } from './routing-sequence.js';

type Objective = 'cost' | 'speed' | 'balanced';

/** What the window of one profile shows. */
export interface ProfileEvidence {
  profile: string;
  /** sequences in the window (the latest `minSamples` complete ones of this task class) */
  samples: number;
  accepted: number;
  /** summed over the window, failed sequences and escalations included; null when unknown */
  costUsd: number | null;
  durationMs: number;
  /** cost / time per accepted sequence (null: unknown cost, or nothing accepted) */
  costPerAccepted: number | null;
  msPerAccepted: number | null;
  eligible: boolean;
  /** why it is or is not eligible, in words */
  why: string;
}

/** The journaled decision: the profile the run starts with, why, and the evidence. */
export interface RoutingDecision {
  start: string;
  baseline: string;
  objective: Objective;
  minSamples: number;
  taskClass: string;
  reason: string;
  evidence: ProfileEvidence[];
}

/**
 * The window of one profile and whether it may be compared. `strict` (runs that route by sequence,
 * and every new decision): every call of the window must have reported its cost (prices from
 * `price` count) and its token counts, whatever the objective, since the seed asks complete
 * reported cost of every attempt; no call may have ended in an infrastructure failure (the
 * seed: such failures are no evidence of the model's reasoning and do not qualify); and an empty
 * window's cost is unknown, not $0. Decisions journaled before are re-derived with the rules they
 * were made by (`speed` ignored unknown cost).
 */
function evidenceFor(profile: Profile, sequences: readonly RoutingSequence[], taskClass: string, minSamples: number, objective: Objective, strict: boolean): ProfileEvidence {
  const mine = sequences.filter((sequence) => sequence.profile === profile.name && sequence.taskClass === taskClass && sequence.complete);
  const window = mine.slice(-minSamples);
  const accepted = window.filter((sequence) => sequence.accepted).length;
  const unknownCost = window.some((sequence) => sequence.costUsd === null) || (strict && window.length === 0);
  const unknownTokens = strict && window.some((sequence) => sequence.unknownTokens);
  const partial = window.some((sequence) => sequence.partial);
  const costUsd = unknownCost ? null : window.reduce((sum, sequence) => sum + (sequence.costUsd ?? 0), 0);
  const durationMs = window.reduce((sum, sequence) => sum + sequence.durationMs, 0);
  const base = {
    profile: profile.name, samples: window.length, accepted, costUsd, durationMs,
    costPerAccepted: costUsd === null || accepted === 0 ? null : costUsd / accepted,
    msPerAccepted: accepted === 0 ? null : durationMs / accepted,
  };
  if (window.length < minSamples) return { ...base, eligible: false, why: `${window.length} of ${minSamples} complete sequences` };
  if (partial) return { ...base, eligible: false, why: 'a call in the window was cut short: its usage is partial' };
  if (strict && window.some((sequence) => sequence.infrastructure)) return { ...base, eligible: false, why: 'a call in the window ended in an infrastructure failure (a crash, a timeout, a server error): it is no evidence of the model' };
  if (unknownTokens) return { ...base, eligible: false, why: 'a call in the window reported no token counts: its usage is partial' };
  if (unknownCost && (strict || objective !== 'speed')) return { ...base, eligible: false, why: 'a call in the window reported no cost (unknown is never zero)' };
  if (accepted === 0) return { ...base, eligible: false, why: 'no accepted sequence in the window' };
  return { ...base, eligible: true, why: `${accepted} of ${window.length} accepted` };
}

/** Is `alternative` better than `baseline` under `objective` (the seed's rules)? */
export function beats(alternative: ProfileEvidence, baseline: ProfileEvidence, objective: Objective): boolean {
  if (alternative.accepted < baseline.accepted) return false;
  const cost = compare(alternative.costPerAccepted, baseline.costPerAccepted);
  const time = compare(alternative.msPerAccepted, baseline.msPerAccepted);
  switch (objective) {
    case 'cost':
      return cost === 'better';
    case 'speed':
      return time === 'better';
    case 'balanced':
      return cost !== 'worse' && time !== 'worse' && cost !== 'unknown' && time !== 'unknown' && (cost === 'better' || time === 'better');
  }
}

function compare(a: number | null, b: number | null): 'better' | 'same' | 'worse' | 'unknown' {
  if (a === null || b === null) return 'unknown';
  return a < b ? 'better' : a > b ? 'worse' : 'same';
}

/**
 * The profile the next run starts with. The baseline is the profile `agent` names (else the first);
 * an alternative replaces it only when both windows are eligible and the alternative beats it; of
 * several, the best by the objective, equal scores keeping file order. `strict`: the evidence rules
 * of runs that route by sequence (see `evidenceFor`); false re-derives decisions journaled before.
 */
export function economicChoice(config: Config, sequences: readonly RoutingSequence[], taskClass: string, strict = true): RoutingDecision | null {
  if (config.routing?.kind !== 'economic') return null;
  const profiles = config.profiles ?? [];
  const baselineProfile = profiles.find((profile) => profile.name === config.agentProfile) ?? profiles[0];
  if (!baselineProfile) return null;
  const { objective, minSamples } = config.routing;
  const evidence = profiles.map((profile) => evidenceFor(profile, sequences, taskClass, minSamples, objective, strict));
  const decide = (start: string, reason: string): RoutingDecision => ({ start, baseline: baselineProfile.name, objective, minSamples, taskClass, reason, evidence });
  const baseline = evidence.find((entry) => entry.profile === baselineProfile.name);
  if (!baseline?.eligible) return decide(baselineProfile.name, `insufficient evidence: the baseline ${baselineProfile.name} has ${baseline?.why ?? 'no window'}`);
  const key = (entry: ProfileEvidence): number => (objective === 'speed' ? entry.msPerAccepted : entry.costPerAccepted) ?? Infinity;
  let best = baseline;
  for (const entry of evidence) {
    if (entry === baseline || !entry.eligible || !beats(entry, baseline, objective)) continue;
    if (best === baseline || key(entry) < key(best)) best = entry;
  }
  if (best === baseline) return decide(baseline.profile, `no eligible profile beats the baseline ${baseline.profile} on ${objective}`);
  const figure = objective === 'speed'
    ? `${((best.msPerAccepted ?? 0) / 1000).toFixed(1)}s vs ${((baseline.msPerAccepted ?? 0) / 1000).toFixed(1)}s per accepted sequence`
    : `$${(best.costPerAccepted ?? 0).toFixed(4)} vs $${(baseline.costPerAccepted ?? 0).toFixed(4)} per accepted sequence`;
  return decide(best.profile, `${best.profile} beats the baseline ${baseline.profile} on ${objective}: ${figure}, ${best.accepted} vs ${baseline.accepted} accepted`);
}
