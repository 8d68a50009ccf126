// `yoke answer`: the operator's answer to a held tool call, or the end of a standing one, as a
// journal record of the hold's run (DESIGN §13). Checked first; nothing is written on a bad answer.
import { answerScopeProblem, type AnswerScope } from '../../policy/ruling/tool-answer.js';
import { YokeError } from '../../errors/yoke-error.js';
import { lifecycleOf, startOf } from '../fold/journal-runs.js';
import type { JournalWriter } from '../journal/journal-writer.js';
import type { JournalRecord } from '../journal/record.js';
import { toolHolds, type ToolHold } from './tool-records.js';

/** The answer to give. */
export interface HoldAnswer {
  id: string;
  ruling: 'pass' | 'refuse';
  scope: AnswerScope;
  why: string | null;
}

/** The hold with `id`, unanswered; else a usage error saying what is wrong. */
export function openHold(records: readonly JournalRecord[], id: string): ToolHold {
  const hold = toolHolds(records).find((candidate) => candidate.id === id || candidate.callId === id);
  if (hold === undefined) throw new YokeError('usage', `there is no held tool call ${id}; list them with \`yoke holds\`.`);
  if (hold.answered !== null) throw new YokeError('usage', `held call ${hold.id} was already answered (${hold.answered.ruling}, answer ${hold.answered.answer}); nothing was changed.`);
  return hold;
}

/** The answer's record draft for `hold` (checked: a destructive or secret call takes --scope call only). */
export function answerDraft(records: readonly JournalRecord[], hold: ToolHold, answer: HoldAnswer): Parameters<JournalWriter['stage']>[0] {
  const problem = answerScopeProblem(hold.class, answer.scope);
  if (problem !== null) throw new YokeError('usage', `--scope ${answer.scope}: ${problem}`);
  const lifecycle = hold.run === null ? null : lifecycleOf(startOf(records, hold.run));
  const count = records.filter((record) => record.type === 'tool.answered' && record.payload.id === hold.id).length;
  return {
    type: 'tool.answered',
    run: hold.run,
    machine: lifecycle?.name ?? null,
    mv: lifecycle?.version ?? null,
    payload: { answer: `${hold.id}-a${count + 1}`, id: hold.id, callId: hold.callId, tool: hold.tool, class: hold.class, ruling: answer.ruling, scope: answer.scope, why: answer.why },
  };
}

/** The revocation's draft: `answer` must be a standing (run or workspace) answer not yet revoked. */
export function revokeDraft(records: readonly JournalRecord[], answer: string): Parameters<JournalWriter['stage']>[0] {
  const given = records.find((record): record is Extract<JournalRecord, { type: 'tool.answered' }> => record.type === 'tool.answered' && record.payload.answer === answer);
  if (given === undefined) throw new YokeError('usage', `there is no answer ${answer}; answers are listed by \`yoke holds --json\`.`);
  if (given.payload.scope === 'call') throw new YokeError('usage', `answer ${answer} was for one call only (--scope call): there is nothing standing to revoke.`);
  if (records.some((record) => record.type === 'tool.revoked' && record.payload.answer === answer)) throw new YokeError('usage', `answer ${answer} was already revoked; nothing was changed.`);
  return { type: 'tool.revoked', run: given.run, machine: given.machine, mv: given.mv, payload: { answer } };
}
