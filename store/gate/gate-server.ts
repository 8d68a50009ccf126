// The running yoke's side of the tool-call gate (DESIGN §13): a unix socket, private to the user,
// that `yoke gate` asks for a ruling on each tool call of the run's agent. yoke stays the only
// journal writer: each question becomes a `tool.requested` and a `tool.ruled` record, made durable
// before the answer goes back, so no call runs on a ruling the journal does not hold.
import { mkdtemp, chmod, rm } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Config } from '../../config/types.js';
import { gateScope } from '../../policy/gate/gate-scope.js';
import { readHookRequest } from '../../policy/gate/hook-request.js';
import { ruleHookCall, unreadableRefusal } from '../../policy/gate/rule-hook-call.js';
import { isPolicyAgent } from '../../policy/tool-act.js';
import type { JournalRecord, RecordDraft } from '../journal/record.js';
import { agentCallId, gateCallId, gateHoldId } from './hold-id.js';
import type { GateAnswer, GateQuestion } from '../../effects/gate/gate-protocol.js';
import { journalAnswers } from './tool-records.js';

type Draft = Omit<RecordDraft, 'run' | 'machine' | 'mv'>;

/** What the server needs from the run. */
export interface GateHost {
  run: string;
  root: string;
  home: string | null;
  config: Pick<Config, 'allow' | 'noModify' | 'toolRules' | 'toolControl'>;
  /** stage a record of the run (the runner's own staging) */
  stage(draft: Draft): JournalRecord;
  flush(): Promise<void>;
  records(): readonly JournalRecord[];
}

/** A listening gate: its socket path, the holds ruled for the current agent call, and close. */
export interface GateServer {
  socketPath: string;
  /** the agent call whose tool calls are ruled now (null between calls: every question is refused) */
  setCall(key: string | null): void;
  /** the hold ids ruled during the current call, in order */
  heldInCall(): string[];
  close(): Promise<void>;
}

/** Start the gate in a fresh private directory (0700), socket 0600. */
export async function openGateServer(host: GateHost): Promise<GateServer> {
  const dir = await mkdtemp(join(tmpdir(), 'yoke-gate-'));
  await chmod(dir, 0o700);
  const socketPath = join(dir, 'gate.sock');
  let call: string | null = null;
  let held: string[] = [];
  // One question at a time: records are staged in the order the gate asked.
  let queue: Promise<unknown> = Promise.resolve();
  const server: Server = createServer((socket) => {
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      text += chunk;
      const end = text.indexOf('\n');
      if (end < 0) return;
      const line = text.slice(0, end);
      queue = queue.then(() => answer(line, socket)).catch(() => socket.destroy());
    });
    socket.on('error', () => undefined);
  });

  async function answer(line: string, socket: Socket): Promise<void> {
    const reply = await rule(line);
    socket.end(`${JSON.stringify(reply)}\n`);
  }

  async function rule(line: string): Promise<GateAnswer> {
    let question: GateQuestion;
    try {
      question = JSON.parse(line) as GateQuestion;
    } catch {
      question = { agent: '?', text: line };
    }
    const agent = typeof question.agent === 'string' ? question.agent : '?';
    const text = typeof question.text === 'string' ? question.text : '';
    const read = readHookRequest(text);
    if (!read.ok || !isPolicyAgent(agent) || call === null) {
      const problem = !read.ok ? read.problem : !isPolicyAgent(agent) ? `yoke has no tool rules for agent ${agent}` : 'no agent call of this run is in progress';
      const callId = gateCallId(null, '?', text);
      const id = gateHoldId(host.run, callId);
      host.stage({ type: 'tool.requested', payload: { id, callId, key: call, agent, tool: read.ok ? read.request.tool : null, input: read.ok ? read.request.input : null, scope: null, unreadable: text.slice(0, 2000) } });
      const message = unreadableRefusal(problem);
      host.stage({ type: 'tool.ruled', payload: { id, ruling: 'refuse', class: null, classes: [], source: { kind: 'unreadable' }, message, enforced: true } });
      await host.flush();
      return { ruling: 'refuse', message, id };
    }
    const { request } = read;
    const callId = agentCallId(agent, request.toolUseId, request.tool, request.input);
    const id = gateHoldId(host.run, callId);
    const scope = gateScope(host.root, request.cwd, host.config, host.home);
    const { classification, ruling } = ruleHookCall({ agent, tool: request.tool, input: request.input, callId, runId: host.run }, scope, host.config.toolRules, journalAnswers(host.records()));
    const enforced = (host.config.toolControl ?? 'on') === 'on';
    host.stage({ type: 'tool.requested', payload: { id, callId, key: call, agent, tool: request.tool, input: request.input, scope } });
    host.stage({ type: 'tool.ruled', payload: { id, ruling: ruling.ruling, class: ruling.class, classes: classification.classes, source: ruling.source, message: ruling.message, enforced } });
    await host.flush();
    if (!enforced) return { ruling: 'pass', message: `advisory: ${ruling.message}`, id };
    if (ruling.ruling === 'hold') held = [...held, id];
    return { ruling: ruling.ruling, message: ruling.message, id };
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => resolve());
  });
  await chmod(socketPath, 0o600);
  return {
    socketPath,
    setCall(key) {
      call = key;
      held = [];
    },
    heldInCall: () => held,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(dir, { recursive: true, force: true });
    },
  };
}
