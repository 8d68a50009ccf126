// `yoke routing`: which profile the next attempt would use, and why, from the workspace's own
// journal (DESIGN §15): the ladder for `escalate`, the evidence per profile for `economic`.
import type { Config } from '../../config/types.js';
import { escalationLadder } from '../../machines/routing/escalation-ladder.js';
import type { ProfileEvidence, RoutingDecision } from '../../machines/routing/economic-choice.js';
import { routingDecisionFor } from '../../store/projections/routing-sequences.js';
import { readWorkspace } from '../../store/session/read-workspace.js';
import { findProject } from '../find-project.js';
import { loadConfig } from '../load-config.js';

/** What `yoke routing --json` prints. */
interface RoutingReport {
  routing: NonNullable<Config['routing']>['kind'];
  /** the profile the next run's first attempt uses (null: `agent` names no profile) */
  next: string | null;
  /** escalate: the tiers the sequence climbs, cheapest first */
  ladder: { profile: string; tier: string }[];
  decision: RoutingDecision | null;
}

/** Print the choice the next attempt would make. */
export async function routingCommand(flags: { json: boolean }): Promise<number> {
  const paths = findProject(process.cwd());
  const config = loadConfig(paths, (line) => process.stderr.write(`${line}\n`));
  const kind = config.routing?.kind ?? 'fixed';
  const decision = kind === 'economic' ? routingDecisionFor((await readWorkspace(paths)).records, config) : null;
  const ladder = kind === 'escalate' ? escalationLadder(config).map((profile) => ({ profile: profile.name, tier: profile.tier })) : [];
  const report: RoutingReport = { routing: kind, next: decision?.start ?? ladder[0]?.profile ?? config.agentProfile ?? null, ladder, decision };
  process.stdout.write(flags.json ? `${JSON.stringify(report)}\n` : renderRouting(report, config));
  return 0;
}

function renderRouting(report: RoutingReport, config: Config): string {
  const lines: string[] = [];
  switch (report.routing) {
    case 'fixed':
      lines.push(`routing fixed: every attempt uses ${report.next === null ? 'the `agent` line' : `the profile ${report.next}`}.`);
      break;
    case 'escalate':
      lines.push(`routing escalate: a sequence starts at ${report.next ?? '?'} and climbs one tier after each attempt that fails its gates${config.maxTier ? ` (up to ${config.maxTier})` : ''}:`);
      for (const rung of report.ladder) lines.push(`  ${rung.tier.padEnd(9)} ${rung.profile}`);
      break;
    case 'economic': {
      const decision = report.decision;
      if (!decision) break;
      lines.push(`routing economic (objective ${decision.objective}, min-samples ${decision.minSamples}): the next run starts with ${decision.start}.`);
      lines.push(`  why: ${decision.reason}`);
      lines.push(`  ${'profile'.padEnd(16)} ${'samples'.padStart(7)} ${'accepted'.padStart(8)} ${'$/accepted'.padStart(11)} ${'s/accepted'.padStart(10)}  eligible`);
      for (const entry of decision.evidence) lines.push(`  ${row(entry, entry.profile === decision.baseline)}`);
      break;
    }
  }
  return `${lines.join('\n')}\n`;
}

function row(entry: ProfileEvidence, baseline: boolean): string {
  const cost = entry.costPerAccepted === null ? '?' : entry.costPerAccepted.toFixed(4);
  const time = entry.msPerAccepted === null ? '?' : (entry.msPerAccepted / 1000).toFixed(1);
  const name = `${entry.profile}${baseline ? '*' : ''}`;
  return `${name.padEnd(16)} ${String(entry.samples).padStart(7)} ${String(entry.accepted).padStart(8)} ${cost.padStart(11)} ${time.padStart(10)}  ${entry.eligible ? 'yes' : 'no'}: ${entry.why}`;
}
