// The running yoke's side of the tool-call gate (DESIGN §13): a unix socket, private to the user,
// that `yoke gate` asks for a ruling on each tool call of the run's agent. yoke stays the only
// journal writer: each question becomes a `tool.requested` and a `tool.ruled` record, made durable
// before the answer goes back, so no call runs on a ruling the journal does not hold.
import { timingSafeEqual } from 'node:crypto';
import { lstat, mkdtemp, chmod, rm } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEPENDENCY_FOLDERS } from '../../config/lane-worktree-path.js';
import type { Config } from '../../config/types.js';
import { gateScope } from '../../policy/gate/gate-scope.js';
import { readHookRequest } from '../../policy/gate/hook-request.js';
import { unreadableRefusal } from '../../policy/gate/rule-hook-call.js';
import { trackedDigest } from '../../policy/gate/tracked-digest.js';
import { isPolicyAgent } from '../../policy/tool-act.js';
import type { ToolScope } from '../../policy/tool-scope.js';
import type { JournalRecord, RecordDraft } from '../journal/record.js';
import { agentCallId, gateCallId, gateHoldId } from '../../policy/gate/gate-call-id.js';
import type { GateAnswer, GateQuestion, OperatorMessage, OperatorReply } from '../../effects/gate/gate-protocol.js';
import { YokeError } from '../../errors/yoke-error.js';
import { answerDraft, openHold, revokeDraft } from './answer-hold.js';
import { ruleReadingScripts } from './rule-reading-scripts.js';
import { journalAnswers } from './tool-records.js';

type Draft = Omit<RecordDraft, 'run' | 'machine' | 'mv'>;

/** What the server needs from the run. */
export interface GateHost {
  run: string;
  root: string;
  home: string | null;
  config: Pick<Config, 'allow' | 'noModify' | 'toolRules' | 'toolControl'>;
  /** the `protect` patterns in force now (the run's protection baseline, which `yoke protect refresh` may change) */
  protect(): readonly string[];
  /**
   * the tracked files of the project the agent call `call` works in (read once per call), or null
   * when unknown; `root` is that call's root (a parallel lane's worktree, else the project's)
   */
  tracked(call: { key: string; root: string }): Promise<readonly string[] | null>;
  /** stage a record of the run (the runner's own staging) */
  stage(draft: Draft): JournalRecord;
  /** stage an operator's record as drafted (its run is the hold's, which may be an earlier run) */
  stageOperator(draft: RecordDraft): JournalRecord;
  flush(): Promise<void>;
  /** the token an operator message must carry (`yoke answer` reads it from the gate pointer); null: none is taken */
  token: string | null;
  records(): readonly JournalRecord[];
}

/** A listening gate: its socket path, the holds ruled for the current agent call, and close. */
export interface GateServer {
  socketPath: string;
  /** the agent call whose tool calls are ruled now (null between calls: every question is refused) */
  setCall(key: string | null): void;
  /** the hold ids ruled during the current call, in order; without `answeredToo`, only those no answer reached yet */
  heldInCall(answeredToo?: boolean): string[];
  /**
   * A socket of its own for agent call `key`, which runs alongside others (a parallel lane's, DESIGN
   * §10): its tool calls are ruled for that call and judged in `root` (the lane's worktree).
   */
  openCall(key: string, root: string): Promise<GateCall>;
  close(): Promise<void>;
}

/** One agent call's own socket on the gate: its path, the holds ruled in it, and close (after the call ended). */
export interface GateCall {
  socketPath: string;
  heldInCall(answeredToo?: boolean): string[];
  close(): Promise<void>;
}

/** What the gate knows of the agent call a question comes from. */
interface CallState {
  /** null: no agent call of the run is in progress (every question is refused) */
  key: string | null;
  /** the root its tool calls are judged in */
  root: string;
  /** the hold ids ruled in it, in order */
  held: string[];
  /** the folders of its root that link to the main tree's (a lane's dependency folders) */
  shared: string[];
  /** the call whose requests journaled the tracked list whole, and the list's digest */
  listed: { key: string | null; digest: string } | null;
}

/** Start the gate in a fresh private directory (0700), socket 0600. */
export async function openGateServer(host: GateHost): Promise<GateServer> {
  const dir = await mkdtemp(join(tmpdir(), 'yoke-gate-'));
  await chmod(dir, 0o700);
  const socketPath = join(dir, 'gate.sock');
  // the serial agent call (setCall); calls with a socket of their own have their own state
  const serial: CallState = { key: null, root: host.root, held: [], shared: [], listed: null };
  let opened = 0;
  // One question at a time, whichever socket it came on: records are staged in the order the gate asked.
  let queue: Promise<unknown> = Promise.resolve();
  const listen = (state: CallState): Server => createServer((socket) => {
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      text += chunk;
      const end = text.indexOf('\n');
      if (end < 0) return;
      const line = text.slice(0, end);
      queue = queue.then(() => answer(line, socket, state)).catch(() => socket.destroy());
    });
    socket.on('error', () => undefined);
  });
  const server = listen(serial);

  // The tracked list goes into the journal whole once per agent call; later requests name it by digest.
  function journaledScope(scope: ToolScope, state: CallState): ToolScope {
    if (scope.tracked === undefined) return scope;
    const digest = trackedDigest(scope.tracked);
    if (state.listed?.key === state.key && state.listed.digest === digest) {
      const { tracked: _tracked, ...rest } = scope;
      return { ...rest, trackedDigest: digest };
    }
    state.listed = { key: state.key, digest };
    return scope;
  }

  async function answer(line: string, socket: Socket, state: CallState): Promise<void> {
    const reply = await rule(line, state);
    socket.end(`${JSON.stringify(reply)}\n`);
  }

  async function rule(line: string, state: CallState): Promise<GateAnswer | OperatorReply> {
    const call = state.key;
    let question: GateQuestion;
    try {
      question = JSON.parse(line) as GateQuestion;
    } catch {
      question = { agent: '?', text: line };
    }
    if (typeof question === 'object' && question !== null && 'kind' in question) return await operator(question);
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
    const tracked = await host.tracked({ key: call, root: state.root });
    const { classification, ruling, scope } = ruleReadingScripts(
      { agent, tool: request.tool, input: request.input, callId, runId: host.run }, { ...gateScope(state.root, request.cwd, host.config, host.home, host.protect(), tracked), ...(state.shared.length === 0 ? {} : { shared: state.shared }) },
      host.config.toolRules, journalAnswers(host.records()),
    );
    const enforced = (host.config.toolControl ?? 'on') === 'on';
    host.stage({ type: 'tool.requested', payload: { id, callId, key: call, agent, tool: request.tool, input: request.input, scope: journaledScope(scope, state) } });
    host.stage({ type: 'tool.ruled', payload: { id, ruling: ruling.ruling, class: ruling.class, classes: classification.classes, source: ruling.source, message: ruling.message, enforced } });
    await host.flush();
    if (!enforced) return { ruling: 'pass', message: `advisory: ${ruling.message}`, id };
    if (ruling.ruling === 'hold') state.held = [...state.held, id];
    return { ruling: ruling.ruling, message: ruling.message, id };
  }

  /** An operator's answer or revocation, checked as `yoke answer` checks it, journaled as the run's own write. */
  async function operator(message: unknown): Promise<OperatorReply> {
    if (!isOperatorMessage(message)) return { ok: false, message: 'the running yoke could not read the message (an answer or a revocation, with the token).' };
    if (host.token === null || !sameToken(message.token, host.token)) {
      return { ok: false, message: "the running yoke refused the message: it does not carry the run's token (from .loop/.journal/gate.json)." };
    }
    try {
      const records = host.records();
      const draft = message.kind === 'revoke' ? revokeDraft(records, message.answer) : operatorAnswer(records, message);
      const record = host.stageOperator(draft);
      await host.flush();
      return { ok: true, payload: record.payload };
    } catch (error) {
      if (error instanceof YokeError) return { ok: false, message: error.message };
      throw error;
    }
  }

  const answered = (id: string): boolean => host.records().some((record) => record.type === 'tool.answered' && record.payload.id === id);

  const heldIn = (state: CallState, answeredToo: boolean): string[] => (answeredToo ? state.held : state.held.filter((id) => !answered(id)));
  const calls = new Set<Server>();

  await listening(server, socketPath);
  return {
    socketPath,
    setCall(key) {
      serial.key = key;
      serial.held = [];
    },
    heldInCall: (answeredToo = false) => heldIn(serial, answeredToo),
    async openCall(key, root) {
      opened += 1;
      const path = join(dir, `call-${opened}.sock`);
      const state: CallState = { key, root, held: [], shared: await linkedFolders(root), listed: null };
      const callServer = listen(state);
      await listening(callServer, path);
      calls.add(callServer);
      return {
        socketPath: path,
        heldInCall: (answeredToo = false) => heldIn(state, answeredToo),
        async close() {
          // the call ended: a question of it still queued is refused (as the serial call's after setCall(null)), a later one finds no socket
          state.key = null;
          calls.delete(callServer);
          await new Promise<void>((resolve) => callServer.close(() => resolve()));
          await rm(path, { force: true });
        },
      };
    },
    async close() {
      await Promise.all([...calls].map((callServer) => new Promise<void>((resolve) => callServer.close(() => resolve()))));
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Listen on `path`, private to the user (0600). */
async function listening(server: Server, path: string): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => resolve());
  });
  await chmod(path, 0o600);
}

/** The answer's draft, checked as `yoke answer` checks it (the id may also be the call's). */
function operatorAnswer(records: readonly JournalRecord[], message: Extract<OperatorMessage, { kind: 'answer' }>): RecordDraft {
  const hold = openHold(records, message.id);
  return answerDraft(records, hold, { id: hold.id, ruling: message.ruling, scope: message.scope, why: message.why });
}

/** An operator message, well formed (anything else on the socket is a hook's question). */
function isOperatorMessage(value: unknown): value is OperatorMessage {
  if (typeof value !== 'object' || value === null) return false;
  const m = value as Record<string, unknown>;
  if (typeof m.token !== 'string') return false;
  if (m.kind === 'revoke') return typeof m.answer === 'string';
  return m.kind === 'answer' && typeof m.id === 'string' && (m.ruling === 'pass' || m.ruling === 'refuse')
    && (m.scope === 'call' || m.scope === 'run' || m.scope === 'workspace') && (m.why === null || typeof m.why === 'string');
}

function sameToken(given: string, token: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The dependency folders of a lane's worktree that are links (to the main tree's, lane-dependencies.ts), as the call starts. */
async function linkedFolders(root: string): Promise<string[]> {
  const linked: string[] = [];
  for (const name of DEPENDENCY_FOLDERS) {
    if ((await lstat(join(root, name)).catch(() => null))?.isSymbolicLink() === true) linked.push(name);
  }
  return linked;
}
