// What `yoke check` prints about a finished check: one line per criterion, artifact, the source
// tree and the protection (DESIGN §16), then the verdict with the report's path. Pure: report in, lines out.
import type { CheckReport, JourneyReport } from '../machines/acceptance/check-report.js';

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)}s`;
}

function journeyDetail(journey: JourneyReport, proof: string): string {
  const evidence = [journey.screenshot, journey.video].filter((file): file is string => file !== null).map((file) => `${proof}/${file}`);
  const shown = evidence.length === 0 ? 'no screenshot' : evidence.join(', ');
  if (journey.status === 'passed') return `${journey.steps.length} ${journey.steps.length === 1 ? 'step' : 'steps'}; ${shown}`;
  const step = journey.steps.find((entry) => entry.status === 'failed');
  const skipped = journey.steps.filter((entry) => entry.status === 'skipped').length;
  const where = step !== undefined ? `step ${step.index} (${step.action})` : journey.navigation.status === 'failed' ? 'opening the page' : 'evidence';
  return `${where}: ${journey.category ?? 'failed'}${skipped > 0 ? `, ${skipped} skipped` : ''}; ${shown}`;
}

/** The lines for `report`, whose folder is `proof` (as the user should open it, e.g. `.loop/proof/latest`). */
export function checkSummary(report: CheckReport, proof: string): string[] {
  const lines: string[] = [];
  for (const criterion of report.criteria) {
    const journey = report.journeys.find((entry) => entry.name === criterion.name);
    const detail = journey !== undefined ? journeyDetail(journey, proof)
      : criterion.outcome === 'exited' ? `exit ${criterion.exitCode ?? '?'}` : criterion.outcome ?? '';
    lines.push(`${criterion.status === 'passed' ? 'pass' : 'FAIL'}  ${criterion.kind === 'journey' ? 'journey' : 'criterion'} ${criterion.name} (${seconds(criterion.durationMs)}): ${detail}`);
  }
  for (const artifact of report.artifacts) {
    const content = artifact.sha256 === null ? '' : ` sha256 ${artifact.sha256.slice(0, 12)}…, ${artifact.size ?? 0} bytes`;
    const why = artifact.reason === null ? `bound to ${artifact.criteria.join(', ')}` : artifact.reason;
    lines.push(`${artifact.status === 'passed' ? 'pass' : 'FAIL'}  artifact ${artifact.path}:${content} (${why})`);
  }
  lines.push(report.source.matches ? 'pass  source tree unchanged during the check' : `FAIL  source tree changed during the check (${report.source.before.slice(0, 12)} → ${report.source.after.slice(0, 12)})`);
  const protection = report.protection;
  if (protection !== undefined) {
    lines.push(protection.unchanged === null ? `note  protection ${protection.digest.slice(0, 12)}: no baseline yet (the next \`yoke run\` takes it)`
      : protection.unchanged ? `pass  protection unchanged since its baseline (${protection.digest.slice(0, 12)})`
      : `FAIL  protected files changed since the baseline (${protection.baseline?.slice(0, 12) ?? '?'} → ${protection.digest.slice(0, 12)}): \`yoke protect status\` lists them`);
  }
  lines.push(`check ${report.status} in ${seconds(report.durationMs)}: ${proof}/report.json`);
  return lines;
}
