// `yoke holds [--json] [--workspace <name>]`: the tool calls held for the operator (DESIGN §13), unanswered first.
import { holdOrigins, inputSummary, toolHolds, type HoldOrigin } from '../../store/gate/tool-records.js';
import { readWorkspace } from '../../store/session/read-workspace.js';
import { findProject } from '../find-project.js';
import { workspaceTarget } from '../workspace-target.js';

/** Lists held calls: id, time, lanes or story, agent, tool, class, input summary (and the answer, if any). */
export async function holdsCommand(flags: { json: boolean; all: boolean; workspace?: string }): Promise<number> {
  const { records } = await readWorkspace(await workspaceTarget(flags.workspace, () => findProject(process.cwd())));
  const holds = toolHolds(records).filter((hold) => flags.all || hold.answered === null);
  const origins = holdOrigins(records);
  const originOf = (id: string): HoldOrigin => origins.get(id) ?? { lanes: [], stories: [] };
  if (flags.json) {
    process.stdout.write(`${JSON.stringify(holds.map((hold) => ({ ...hold, ...originOf(hold.id), summary: inputSummary(hold.input) })))}\n`);
    return 0;
  }
  if (holds.length === 0) {
    process.stdout.write(flags.all ? 'No tool call was ever held.\n' : 'No tool call is waiting for an answer.\n');
    return 0;
  }
  for (const hold of holds) {
    const answered = hold.answered === null ? 'waiting' : `answered ${hold.answered.ruling} (${hold.answered.scope}, ${hold.answered.answer})`;
    process.stdout.write(`${hold.id}  ${hold.ts}  ${originText(originOf(hold.id))}${hold.agent} ${hold.tool}  ${hold.class}  ${inputSummary(hold.input)}  ${answered}\n`);
  }
  const where = flags.workspace === undefined ? '' : ` --workspace ${flags.workspace}`;
  if (holds.some((hold) => hold.answered === null)) process.stdout.write(`Answer with \`yoke answer <id> pass|refuse [--scope call|run|workspace]${where}\`, then \`yoke run\`.\n`);
  return 0;
}

/** "lanes S1, S2  " for a call held in parallel lanes (one answer answers every lane), "story S1  " in a serial stories run, else nothing. */
function originText(origin: HoldOrigin): string {
  if (origin.lanes.length > 0) return `${origin.lanes.length > 1 ? 'lanes' : 'lane'} ${origin.lanes.join(', ')}  `;
  return origin.stories.length > 0 ? `story ${origin.stories.join(', ')}  ` : '';
}
