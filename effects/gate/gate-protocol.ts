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

/** yoke's answer: the ruling to enforce (advisory: always pass), the message for the model, the hold id. */
export interface GateAnswer {
  ruling: Ruling;
  message: string;
  id: string;
}
