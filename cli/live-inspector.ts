// `--live`: stream a run's machine snapshots to the Stately inspector through @statelyai/inspect's
// local relay (`createInspectorServer`). Optional and best effort: the viewer page embeds the
// hosted Stately inspector (it needs the internet), so nothing here may make yoke wait or keep it
// alive. The client is our own adapter over `ws` (no reconnect loop, bounded flush on stop) under
// the package's `createInspector`, which shapes the `@xstate.actor` / `@xstate.snapshot` /
// `@xstate.event` inspection events.
import type { AnyEventObject, AnyMachineSnapshot, AnyStateMachine } from 'xstate';
import type * as WsModule from 'ws';
import type WebSocket from 'ws';
import type * as InspectModule from '@statelyai/inspect';
import type { StatelyInspectionEvent } from '@statelyai/inspect';
import { startLiveRelay, type LiveRelay } from './live-relay.js';

/** A running live view. Sends never throw and never wait. */
export interface LiveInspector {
  /** the relay's page (it embeds the hosted viewer) */
  url: string;
  /** the relay's WebSocket address (what a viewer connects to) */
  socketUrl: string;
  /** the machine's snapshot after `event` (fire-and-forget) */
  sendSnapshot(snapshot: AnyMachineSnapshot, event: AnyEventObject): void;
  /** flush what is queued (briefly), close the client and the relay; nothing stays alive after it */
  stop(): Promise<void>;
}

export interface LiveOptions {
  /** relay port; 0 or omitted: a free port */
  port?: number;
  /** the snapshot the actor is registered with (default: the machine's initial state is unknown, so `active`) */
  initial?: AnyMachineSnapshot;
  /** a one-line warning; the default writes `yoke: warning: …` to stderr */
  warn?: (message: string) => void;
  /** where the one "where to look" line goes (default: stderr) */
  notice?: (line: string) => void;
}

const CONNECT_MS = 1_500;
const FLUSH_MS = 1_000;
const CLOSE_MS = 300;
const MAX_QUEUED = 2_000;

/**
 * Start the relay on `port` and connect to it; register `machine` as an actor. Resolves to null
 * (after one warning) when the package cannot be loaded, the port is taken or the relay cannot be
 * reached: the command goes on without a live view.
 */
export async function startLiveInspector(machine: AnyStateMachine, options: LiveOptions = {}): Promise<LiveInspector | null> {
  const warn = options.warn ?? ((message: string) => void process.stderr.write(`yoke: warning: ${message}\n`));
  const notice = options.notice ?? ((line: string) => void process.stderr.write(`${line}\n`));
  let modules: [typeof InspectModule, typeof WsModule];
  try {
    modules = await Promise.all([import('@statelyai/inspect'), import('ws')]);
  } catch (error) {
    warn(`--live: @statelyai/inspect could not be loaded (${message(error)}); going on without a live view.`);
    return null;
  }
  const [{ createInspector }, wsModule] = modules;
  const WebSocketClient = wsModule.default;
  let relay: LiveRelay;
  try {
    relay = await startLiveRelay(wsModule, options.port ?? 0);
  } catch (error) {
    warn(`--live: port ${options.port ?? 0} is not available (${message(error)}); going on without a live view.`);
    return null;
  }
  const port = relay.port;
  const socketUrl = `ws://127.0.0.1:${port}`;
  const client = new RelayClient(socketUrl, WebSocketClient, warn);
  const inspector = createInspector(client, { serializationDepthLimit: 64 });
  const sessionId = `yoke:${machine.id}`;
  // createInspector reads the definition from `logic.config`: a stand-in actor ref carries it.
  const actorRef = {
    sessionId,
    id: machine.id,
    logic: machine,
    send: () => undefined,
    getSnapshot: () => options.initial,
  };
  inspector.actor(actorRef, view(options.initial));
  if (options.initial) inspector.snapshot(actorRef, view(options.initial), { event: { type: 'xstate.init' } });

  const url = `http://127.0.0.1:${port}`;
  notice(`yoke: live view: open ${url} (relay ${socketUrl}); the viewer embeds the hosted Stately inspector and needs the internet.`);
  let stopped: Promise<void> | null = null;
  return {
    url,
    socketUrl,
    sendSnapshot(snapshot, event) {
      if (stopped) return;
      try {
        inspector.event(actorRef, event);
        inspector.snapshot(actorRef, view(snapshot), { event });
      } catch {
        // best effort: a live view never fails the command
      }
    },
    stop() {
      stopped ??= (async () => {
        await client.close();
        try {
          relay.stop();
        } catch {
          // already closed
        }
      })();
      return stopped;
    },
  };
}

/** What the viewer needs of a snapshot (value, context, status, output), plain JSON. */
function view(snapshot: AnyMachineSnapshot | undefined): { status?: 'active' | 'done' | 'error' | 'stopped'; value?: unknown; context?: unknown; output?: unknown } {
  if (!snapshot) return { status: 'active' };
  return { status: snapshot.status, value: snapshot.value as unknown, context: snapshot.context as unknown, output: snapshot.output as unknown };
}

/**
 * An inspector adapter over one WebSocket to the relay: events queue until the socket opens, a
 * failed connection is retried briefly while the relay starts and then given up (one warning),
 * and `close()` is bounded. Never a reconnect loop, never an unbounded timer.
 */
class RelayClient {
  private socket: WebSocket | null = null;
  private queue: string[] = [];
  private pending = 0;
  private state: 'connecting' | 'open' | 'failed' | 'closed' = 'connecting';
  private readonly opened: Promise<void>;
  private readonly deadline: number;

  constructor(
    private readonly url: string,
    private readonly Client: typeof WebSocket,
    private readonly warn: (message: string) => void,
  ) {
    this.deadline = Date.now() + CONNECT_MS;
    this.opened = new Promise((resolve) => this.connect(resolve));
  }

  send(event: StatelyInspectionEvent): void {
    if (this.state === 'failed' || this.state === 'closed') return;
    let text: string;
    try {
      text = JSON.stringify(event);
    } catch {
      return;
    }
    if (this.state === 'open') this.write(text);
    else if (this.queue.push(text) > MAX_QUEUED) this.queue.shift();
  }

  /** Wait (bounded) for the connection and the queued sends, then close; never throws. */
  async close(): Promise<void> {
    await within(this.opened, CONNECT_MS);
    await within(until(() => this.pending === 0 || this.state !== 'open'), FLUSH_MS);
    this.state = 'closed';
    const socket = this.socket;
    if (!socket) return;
    if (socket.readyState === socket.CLOSED) return;
    await within(new Promise<void>((resolve) => {
      socket.once('close', () => resolve());
      try {
        socket.close();
      } catch {
        resolve();
      }
    }), CLOSE_MS);
    socket.terminate();
  }

  private connect(resolve: () => void): void {
    if (this.state === 'closed') return resolve();
    const socket = new this.Client(this.url);
    this.socket = socket;
    socket.on('error', () => {
      // 'close' follows; retrying is decided there
    });
    socket.once('open', () => {
      if (this.state === 'closed') return resolve();
      this.state = 'open';
      for (const text of this.queue.splice(0)) this.write(text);
      resolve();
    });
    socket.once('close', () => {
      if (this.state !== 'connecting') {
        if (this.state === 'open') this.state = 'failed';
        return resolve();
      }
      if (Date.now() < this.deadline) {
        setTimeout(() => this.connect(resolve), 50).unref();
        return;
      }
      this.state = 'failed';
      this.queue = [];
      this.warn(`--live: could not reach the inspector relay at ${this.url}; going on without a live view.`);
      resolve();
    });
  }

  private write(text: string): void {
    const socket = this.socket;
    if (!socket) return;
    this.pending += 1;
    try {
      socket.send(text, () => {
        this.pending -= 1;
      });
    } catch {
      this.pending -= 1;
    }
  }
}

/** Resolves when `done()` holds (polled on an unref'd timer). */
function until(done: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      if (done()) resolve();
      else setTimeout(check, 10).unref();
    };
    check();
  });
}

/** `promise`, or nothing after `ms` (the timer never keeps the process alive). */
async function within(promise: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([promise, new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
    timer.unref();
  })]);
  clearTimeout(timer);
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
