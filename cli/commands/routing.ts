// `yoke routing`: which profile the next attempt would use, and why, from the workspace's own
// journal (DESIGN §15): an unfinished run's next attempt, the ladder for `escalate`, the evidence per
// profile for `economic`.
import type { Config } from '../../config/types.js';
import type { ProfileEvidence } from '../../machines/routing/economic-choice.js';
import { routingReport, type RoutingReport } from '../../store/projections/routing-report.js';
import { readWorkspace } from '../../store/session/read-workspace.js';
import { findProject } from '../find-project.js';
import { loadConfig } from '../load-config.js';

/** Print the choice the next attempt would make. */
export async function routingCommand(flags: { json: boolean }): Promise<number> {
  const paths = findProject(process.cwd());
  const config = loadConfig(paths, (line) => process.stderr.write(`${line}\n`));
  const report = routingReport((await readWorkspace(paths)).records, config);
  process.stdout.write(flags.json ? `${JSON.stringify(report)}\n` : renderRouting(report, config));
  return 0;
}

function renderRouting(report: RoutingReport, config: Config): string {
  const lines: string[] = [];
  const pending = report.unfinished;
  if (pending !== null) {
    lines.push(`the unfinished run ${pending.run} ${continuesWith(pending)} (\`yoke run\` resumes it; \`--fresh\` starts a new run as below)${pending.lanes !== undefined && pending.lanes.length > 0 ? ':' : '.'}`);
    if (pending.lanes !== undefined) {
      for (const lane of pending.lanes) {
        lines.push(`  lane ${lane.story}: ${lane.profile === null ? 'its `agent` line' : `the profile ${lane.profile}`}${lane.reason === null ? '' : ` (${lane.reason})`}`);
      }
    } else if (pending.reason !== null) lines.push(`  why: ${pending.reason}`);
  }
  const fresh = report.newRun;
  switch (report.routing) {
    case 'fixed':
      lines.push(`routing fixed: every attempt uses ${fresh === null ? 'the `agent` line' : `the profile ${fresh}`}.`);
      break;
    case 'escalate':
      lines.push(`routing escalate: a sequence starts at ${fresh ?? '?'} and climbs one tier after each attempt that fails its gates${config.maxTier ? ` (up to ${config.maxTier})` : ''}:`);
      for (const rung of report.ladder) lines.push(`  ${rung.tier.padEnd(9)} ${rung.profile}`);
      break;
    case 'economic': {
      const decision = report.decision;
      if (!decision) break;
      lines.push(`routing economic (objective ${decision.objective}, min-samples ${decision.minSamples}): ${pending === null ? 'the next run' : 'a new run'} starts with ${decision.start}.`);
      lines.push(`  why: ${decision.reason}`);
      lines.push(`  ${'profile'.padEnd(16)} ${'samples'.padStart(7)} ${'accepted'.padStart(8)} ${'$/accepted'.padStart(11)} ${'s/accepted'.padStart(10)}  eligible`);
      for (const entry of decision.evidence) lines.push(`  ${row(entry, entry.profile === decision.baseline)}`);
      break;
    }
  }
  return `${lines.join('\n')}\n`;
}

/** How the unfinished run goes on: with one profile (serial, or every lane on the same one), or in lanes on profiles of their own. */
function continuesWith(pending: NonNullable<RoutingReport['unfinished']>): string {
  const named = (profile: string | null): string => (profile === null ? 'its `agent` line' : `the profile ${profile}`);
  const lanes = pending.lanes;
  if (lanes === undefined) return `continues with ${named(pending.profile)}`;
  if (lanes.length === 0) return `starts its next lane with ${named(pending.profile)}`;
  const profiles = new Set(lanes.map((lane) => lane.profile));
  if (profiles.size > 1) return `continues in ${lanes.length} lanes, each on its own profile`;
  const where = lanes.length === 1 ? 'its lane' : lanes.length === 2 ? 'both lanes' : `all ${lanes.length} lanes`;
  return `continues with ${named(pending.profile)} in ${where}`;
}

function row(entry: ProfileEvidence, baseline: boolean): string {
  const cost = entry.costPerAccepted === null ? '?' : entry.costPerAccepted.toFixed(4);
  const time = entry.msPerAccepted === null ? '?' : (entry.msPerAccepted / 1000).toFixed(1);
  const name = `${entry.profile}${baseline ? '*' : ''}`;
  return `${name.padEnd(16)} ${String(entry.samples).padStart(7)} ${String(entry.accepted).padStart(8)} ${cost.padStart(11)} ${time.padStart(10)}  ${entry.eligible ? 'yes' : 'no'}: ${entry.why}`;
}
