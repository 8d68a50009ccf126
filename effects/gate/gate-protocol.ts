// What the gate (`yoke gate`) and the running yoke say to each other over the private socket: one
// JSON line each way.
import type { Ruling } from '../../config/types.js';

/** The environment variable yoke sets for an agent call: the socket's path. */
export const GATE_SOCKET_ENV = 'YOKE_GATE_SOCKET';

/** The gate's question: which agent's hook, and the hook's stdin as it came. */
export interface GateQuestion {
  agent: string;
  text: string;
}

/**
 * The operator's word to a live run (`yoke answer` while the run holds the workspace): an answer to
 * one of its holds, or the end of a standing answer. `token` is the run's, from `.loop/.journal/gate.json`.
 */
export type OperatorMessage =
  | { kind: 'answer'; token: string; id: string; ruling: 'pass' | 'refuse'; scope: 'call' | 'run' | 'workspace'; why: string | null }
  | { kind: 'revoke'; token: string; answer: string };

/** The run's reply to an operator: the journaled record's payload, or why nothing was journaled (a usage error). */
export type OperatorReply = { ok: true; payload: Record<string, unknown> } | { ok: false; message: string };

/** yoke's answer: the ruling to enforce (advisory: always pass), the message for the model, the hold id. */
export interface GateAnswer {
  ruling: Ruling;
  message: string;
  id: string;
}
