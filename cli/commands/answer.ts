// `yoke answer <id> pass|refuse [--scope call|run|workspace] [--why …]` and `yoke answer --revoke
// <answer>`, in the project or `--workspace <name>` of a shared store: journal the operator's answer
// to a held tool call (DESIGN §13).
import type { AnswerScope } from '../../policy/ruling/tool-answer.js';
import { answerDraft, openHold, revokeDraft } from '../../store/gate/answer-hold.js';
import { openWorkspace } from '../../store/session/open-workspace.js';
import { YokeError } from '../../errors/yoke-error.js';
import { findProject } from '../find-project.js';
import { settleLines } from '../stash-format.js';
import { warn } from '../terminal.js';
import { tellLiveRun } from '../tell-live-run.js';
import { resumeHint, workspaceTarget } from '../workspace-target.js';

/** The flags as commander hands them over. */
export interface AnswerFlags {
  scope: AnswerScope;
  why?: string;
  revoke?: string;
  json: boolean;
  workspace?: string;
}

/** Answer one hold (or revoke one standing answer); exit 2 on an unknown or answered id, or a scope the class does not take. */
export async function answerCommand(id: string | undefined, ruling: string | undefined, flags: AnswerFlags): Promise<number> {
  if (flags.revoke === undefined) {
    if (id === undefined || (ruling !== 'pass' && ruling !== 'refuse')) {
      throw new YokeError('usage', 'give the hold id and pass or refuse: `yoke answer <id> pass|refuse [--scope call|run|workspace]` (ids: `yoke holds`).');
    }
  } else if (id !== undefined) throw new YokeError('usage', '`yoke answer --revoke <answer>` takes no hold id or ruling.');
  const paths = await workspaceTarget(flags.workspace, () => findProject(process.cwd()));
  // A live run takes the answer over its gate socket and journals it itself (it holds the workspace).
  // With --workspace the run may work on any machine, and its socket (named in its checkout's
  // .loop/.journal/gate.json) is on that machine only: it is not looked for. The lease below then
  // refuses while any run holds the workspace (exit 3), so the answer never reaches a wrong run.
  if (flags.workspace === undefined) {
    const live = await tellLiveRun(paths.loopDir, flags.revoke !== undefined
      ? { kind: 'revoke', answer: flags.revoke }
      : { kind: 'answer', id: id ?? '', ruling: ruling as 'pass' | 'refuse', scope: flags.scope, why: flags.why ?? null });
    if (live.told) return reportLive(live.run, live.payload, flags);
  }
  const session = await openWorkspace(paths, { command: 'yoke answer', warn, onStale: () => undefined });
  try {
    if (session.settled) for (const line of settleLines(session.settled)) warn(line);
    const records = session.journal.records;
    if (flags.revoke !== undefined) {
      const draft = revokeDraft(records, flags.revoke);
      session.journal.stage(draft);
      await session.journal.flush();
      if (flags.json) process.stdout.write(`${JSON.stringify({ revoked: flags.revoke })}\n`);
      else process.stdout.write(`answer ${flags.revoke} no longer stands; later calls are ruled by yoke.conf and the shipped table again.\n`);
      return 0;
    }
    const hold = openHold(records, id ?? '');
    const draft = answerDraft(records, hold, { id: hold.id, ruling: ruling as 'pass' | 'refuse', scope: flags.scope, why: flags.why ?? null });
    const record = session.journal.stage(draft);
    await session.journal.flush();
    const answer = (record.payload as { answer: string }).answer;
    if (flags.json) process.stdout.write(`${JSON.stringify(record.payload)}\n`);
    else {
      const reach = flags.scope === 'call' ? 'this call' : `every ${hold.tool} call classified ${hold.class} ${flags.scope === 'run' ? 'in this run' : 'in this workspace'}`;
      process.stdout.write(`answered ${hold.id} ${String(ruling)} (answer ${answer}, ${reach}).${hold.run === null ? '' : ` ${resumeHint(flags.workspace)}`}\n`);
    }
    return 0;
  } finally {
    await session.close();
  }
}

/** What `yoke answer` says after the live run journaled the answer (or the revocation). */
function reportLive(run: string, payload: Record<string, unknown>, flags: AnswerFlags): number {
  if (flags.json) {
    process.stdout.write(`${JSON.stringify(flags.revoke === undefined ? { ...payload, live: run } : { revoked: flags.revoke, live: run })}\n`);
    return 0;
  }
  if (flags.revoke !== undefined) {
    process.stdout.write(`answer ${flags.revoke} no longer stands; the live run ${run} rules later calls by yoke.conf and the shipped table again.\n`);
    return 0;
  }
  const { id, ruling, answer, tool, scope } = payload as { id: string; ruling: string; answer: string; tool: string; class: string; scope: string };
  const reach = scope === 'call' ? 'this call' : `every ${tool} call classified ${String(payload.class)} ${scope === 'run' ? 'in this run' : 'in this workspace'}`;
  process.stdout.write(`answered ${id} ${ruling} (answer ${answer}, ${reach}); the live run ${run} took it and rules on the call with it when the agent makes it again.\n`);
  return 0;
}
