// `yoke answer <id> pass|refuse [--scope call|run|workspace] [--why …]` and `yoke answer --revoke
// <answer>`: journal the operator's answer to a held tool call (DESIGN §13).
import type { AnswerScope } from '../../policy/ruling/tool-answer.js';
import { answerDraft, openHold, revokeDraft } from '../../store/gate/answer-hold.js';
import { openWorkspace } from '../../store/session/open-workspace.js';
import { YokeError } from '../../errors/yoke-error.js';
import { findProject } from '../find-project.js';
import { settleLines } from '../stash-format.js';
import { warn } from '../terminal.js';

/** The flags as commander hands them over. */
export interface AnswerFlags {
  scope: AnswerScope;
  why?: string;
  revoke?: string;
  json: boolean;
}

/** Answer one hold (or revoke one standing answer); exit 2 on an unknown or answered id, or a scope the class does not take. */
export async function answerCommand(id: string | undefined, ruling: string | undefined, flags: AnswerFlags): Promise<number> {
  if (flags.revoke === undefined) {
    if (id === undefined || (ruling !== 'pass' && ruling !== 'refuse')) {
      throw new YokeError('usage', 'give the hold id and pass or refuse: `yoke answer <id> pass|refuse [--scope call|run|workspace]` (ids: `yoke holds`).');
    }
  } else if (id !== undefined) throw new YokeError('usage', '`yoke answer --revoke <answer>` takes no hold id or ruling.');
  const session = await openWorkspace(findProject(process.cwd()), { command: 'yoke answer', warn, onStale: () => undefined });
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
      process.stdout.write(`answered ${hold.id} ${String(ruling)} (answer ${answer}, ${reach}).${hold.run === null ? '' : ' Run `yoke run` to continue.'}\n`);
    }
    return 0;
  } finally {
    await session.close();
  }
}
