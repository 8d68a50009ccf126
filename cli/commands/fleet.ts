// `yoke fleet`: every worker, job and run of the shared store (DESIGN §14).
import { homedir } from 'node:os';
import { join } from 'node:path';
import { readFleetView } from '../../store/fleet/fleet-view.js';
import { sharedStoreUrl } from '../../store/session/shared-store-url.js';

/** Print the fleet view as text, or as one JSON object. */
export async function fleetCommand(flags: { json: boolean }): Promise<number> {
  const view = await readFleetView(sharedStoreUrl('yoke fleet'), join(homedir(), '.cache', 'yoke', 'fleet'));
  if (flags.json) {
    process.stdout.write(`${JSON.stringify(view)}\n`);
    return 0;
  }
  const out: string[] = [`workers (${view.workers.length})`];
  for (const w of view.workers) out.push(`  ${w.id}  ${w.state.padEnd(7)}  pid ${w.pid} on ${w.host}  heartbeat ${seconds(w.heartbeatAgeMs)} ago  jobs ${w.jobs.length}/${w.concurrency}`);
  out.push(`jobs (${view.jobs.length})`);
  for (const j of view.jobs) out.push(`  ${j.id}  ${(j.queue === 'dead-letter' ? 'dead-letter' : j.state).padEnd(11)}  ${j.workspace}  attempts ${j.attempts}${j.worker ? `  on ${j.worker}` : ''}${reasonOf(j.output)}`);
  out.push(`runs (${view.runs.length})`);
  for (const r of view.runs) out.push(`  ${r.workspace}  ${r.run}  ${r.status === 'finished' ? `finished (exit ${r.exitCode ?? '?'})` : r.status}  ${r.state}  iteration ${r.iteration ?? '-'}/${r.maxIterations ?? '-'}  $${r.costUsd.toFixed(4)}`);
  if (view.unreadable.length > 0) out.push(`unreadable workspaces (${view.unreadable.length})`);
  for (const u of view.unreadable) out.push(`  ${u.workspace}  ${u.reason}`);
  process.stdout.write(`${out.join('\n')}\n`);
  return 0;
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)}s`;
}

function reasonOf(output: unknown): string {
  const reason = (output as { reason?: unknown } | null)?.reason;
  return typeof reason === 'string' ? `  (${reason})` : '';
}
