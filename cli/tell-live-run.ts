// `yoke answer` while a run holds the workspace: the answer goes to the run over its gate socket, and
// the run journals it (it is the only writer) and rules on later calls with it at once (DESIGN §13).
import { journalEntry } from '../config/workspace-layout.js';
import type { OperatorMessage, OperatorReply } from '../effects/gate/gate-protocol.js';
import { liveGatePointer } from '../store/gate/gate-pointer.js';
import { YokeError } from '../errors/yoke-error.js';
import { exchangeLine, socketProblem } from './gate-socket.js';

/** How long to wait for the run: it journals the answer durably before it replies. */
const REPLY_TIMEOUT_MS = 15_000;

/** What telling a live run came to. */
export type LiveTold = { told: false } | { told: true; run: string; payload: Record<string, unknown> };

/**
 * Tell the live run of the workspace at `loopDir`, if there is one whose gate listens. `told: false`
 * means there is none (no pointer, its yoke is gone, or the socket is gone as the run ends): answer
 * offline. The run's refusal (an unknown or answered id, a scope the class does not take) is a usage
 * error with the run's own sentence, as offline.
 */
export async function tellLiveRun(loopDir: string, message: DistributiveOmit<OperatorMessage, 'token'>): Promise<LiveTold> {
  const pointer = liveGatePointer(journalEntry(loopDir, 'gate'));
  if (pointer === null) return { told: false };
  const problem = socketProblem(pointer.socket);
  if (problem !== null) {
    if (problem.endsWith('(ENOENT)')) return { told: false };
    throw new YokeError('workspace', `the live run's gate socket ${problem}; nothing was answered. Answer once the run pauses or ends.`);
  }
  let reply: OperatorReply;
  try {
    reply = await exchange(pointer.socket, { ...message, token: pointer.token });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ECONNREFUSED') return { told: false };
    throw new YokeError('workspace', `the live run ${pointer.run} did not take the answer (${(error as Error).message}); nothing is known to be answered: check \`yoke holds\`, then answer again.`);
  }
  if (!reply.ok) throw new YokeError('usage', reply.message);
  return { told: true, run: pointer.run, payload: reply.payload };
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

async function exchange(path: string, message: OperatorMessage): Promise<OperatorReply> {
  const text = await exchangeLine(path, JSON.stringify(message), REPLY_TIMEOUT_MS);
  let reply: OperatorReply;
  try {
    reply = JSON.parse(text) as OperatorReply;
  } catch (error) {
    throw new Error(`the run's reply could not be read: ${(error as Error).message}`, { cause: error });
  }
  if (typeof reply !== 'object' || reply === null || typeof reply.ok !== 'boolean') throw new Error("the run's reply could not be read: a malformed reply");
  return reply;
}
