// `--live` (issue 5): the relay and client of cli/live-inspector.ts deliver the actor registration
// and the snapshots to a viewer, and the live view never keeps yoke alive: offline (no hosted
// viewer reachable) `yoke replay --live` and `yoke run --live` exit by themselves, and a process
// that only starts and stops the live view ends without process.exit().
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { execa } from 'execa';
import WebSocket from 'ws';
import { afterAll, describe, expect, it } from 'vitest';
import { createMachine, initialTransition, transition } from 'xstate';
import { startLiveInspector } from '../../cli/live-inspector.js';
import { confHead } from '../support/loop-conf.js';
import { makeLoopWorkspace } from '../support/loop-workspace.js';
import { runYoke, type Workspace } from '../support/workspace.js';
import { repoRoot } from '../support/yoke-process.js';

const golden = join(repoRoot, 'tests', 'golden', 'loop-done.v0.1.0.jsonl');
const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

const toggle = createMachine({ id: 'toggle', initial: 'off', states: { off: { on: { FLIP: 'on' } }, on: { on: { FLIP: 'off' } } } });

/** Messages a viewer connected to the relay receives, parsed. */
function viewer(url: string): Promise<{ messages: Array<{ type: string; [key: string]: unknown }>; close(): void }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    const messages: Array<{ type: string }> = [];
    socket.on('message', (data: WebSocket.RawData) => {
      messages.push(JSON.parse(Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.concat(data instanceof ArrayBuffer ? [Buffer.from(data)] : data).toString('utf8')) as { type: string });
    });
    socket.once('error', reject);
    socket.once('open', () => resolve({ messages, close: () => socket.terminate() }));
  });
}

async function eventually(check: () => boolean, ms = 3_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('the live inspector', () => {
  it('a viewer on the relay receives the actor registration (with the definition) and the snapshots', async () => {
    const lines: string[] = [];
    const [initial] = initialTransition(toggle);
    const live = await startLiveInspector(toggle, { initial, notice: (line) => lines.push(line), warn: (line) => lines.push(line) });
    expect(live).not.toBeNull();
    if (!live) return;
    expect(lines).toEqual([expect.stringMatching(/^yoke: live view: open http:\/\/127\.0\.0\.1:\d+ .*needs the internet/)]);
    const seen = await viewer(live.socketUrl);
    const [after] = transition(toggle, initial, { type: 'FLIP' });
    live.sendSnapshot(after, { type: 'FLIP' });
    await eventually(() => seen.messages.some((m) => m.type === '@xstate.snapshot' && (m.snapshot as { value: unknown }).value === 'on'));
    await live.stop();
    seen.close();
    const actor = seen.messages.find((m) => m.type === '@xstate.actor');
    expect(actor).toMatchObject({ name: 'toggle', sessionId: 'yoke:toggle', snapshot: { status: 'active', value: 'off' } });
    expect(JSON.parse(String(actor?.definition))).toMatchObject({ id: 'toggle', states: { off: {}, on: {} } });
    expect(seen.messages.find((m) => m.type === '@xstate.event')).toMatchObject({ sessionId: 'yoke:toggle', event: { type: 'FLIP' } });
    expect(seen.messages.filter((m) => m.type === '@xstate.snapshot').map((m) => (m.snapshot as { value: unknown }).value)).toEqual(['off', 'on']);
  });

  it('a taken port is one warning and no live view', async () => {
    const busy: Server = createServer();
    await new Promise<void>((resolve) => busy.listen(0, resolve));
    cleanups.push(() => new Promise<void>((resolve) => busy.close(() => resolve())));
    const port = (busy.address() as { port: number }).port;
    const lines: string[] = [];
    const live = await startLiveInspector(toggle, { port, notice: (line) => lines.push(line), warn: (line) => lines.push(line) });
    expect(live).toBeNull();
    expect(lines).toEqual([expect.stringMatching(new RegExp(`^--live: port ${port} is not available .*going on without a live view`))]);
  });

  it('after stop() nothing keeps the process alive (it ends without process.exit)', async () => {
    const module = join(repoRoot, 'dist', 'cli', 'live-inspector.js');
    const script = `
      import { createMachine } from 'xstate';
      import { startLiveInspector } from ${JSON.stringify(module)};
      const live = await startLiveInspector(createMachine({ id: 'm', initial: 'a', states: { a: {} } }));
      live.sendSnapshot({ status: 'active', value: 'a', context: {} }, { type: 'X' });
      await live.stop();
      console.log('stopped');
    `;
    const started = Date.now();
    const result = await execa(process.execPath, ['--input-type=module', '-e', script], { cwd: repoRoot, reject: false, timeout: 10_000, killSignal: 'SIGKILL' });
    expect(result.timedOut, result.stderr).toBe(false);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toBe('stopped');
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

describe('--live offline exits by itself', () => {
  it('yoke replay --live on a recorded journal prints the timeline and exits 0', async () => {
    const result = await runYoke({ path: repoRoot }, ['replay', '--live', '--journal', golden], { timeoutMs: 10_000 });
    expect(result.timedOut, result.stderr).toBe(false);
    expect(result.signal).toBeUndefined();
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.durationMs).toBeLessThan(8_000);
    expect(result.stdout).toMatch(/^outcome: finished in done/m);
    expect(result.stderr).toMatch(/^yoke: live view: open http:\/\/127\.0\.0\.1:\d+ \(relay ws:\/\/127\.0\.0\.1:\d+\); .*needs the internet\.$/m);
  });

  it('yoke replay --live cannot be combined with --verify, --at or --html (exit 2)', async () => {
    const result = await runYoke({ path: repoRoot }, ['replay', '--live', '--verify', '--journal', golden], { timeoutMs: 10_000 });
    expect(result.exitCode, result.stderr).toBe(2);
    expect(result.stderr).toMatch(/--live streams the step-by-step replay; it cannot be combined with --verify/);
  });

  it('yoke run --live of a one-iteration loop exits 0 by itself', async () => {
    const made = await makeLoopWorkspace({ conf: [...confHead(1), 'guard ok true', 'commit off'], script: { default: { notes: 'DONE' } } });
    const ws: Workspace = made.ws;
    cleanups.push(() => ws.cleanup());
    const result = await runYoke(ws, ['run', '--quiet', '--live'], { env: made.env, timeoutMs: 20_000 });
    expect(result.timedOut, result.stderr).toBe(false);
    expect(result.signal).toBeUndefined();
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/^yoke: live view: open http:\/\/127\.0\.0\.1:\d+/m);
  });

  it('yoke run --live-port on a taken port warns once and runs anyway', async () => {
    const busy: Server = createServer();
    await new Promise<void>((resolve) => busy.listen(0, resolve));
    cleanups.push(() => new Promise<void>((resolve) => busy.close(() => resolve())));
    const port = (busy.address() as { port: number }).port;
    const made = await makeLoopWorkspace({ conf: [...confHead(1), 'guard ok true', 'commit off'], script: { default: { notes: 'DONE' } } });
    cleanups.push(() => made.ws.cleanup());
    const result = await runYoke(made.ws, ['run', '--quiet', '--live-port', String(port)], { env: made.env, timeoutMs: 20_000 });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).toMatch(new RegExp(`^yoke: warning: --live: port ${port} is not available`, 'm'));
    expect(result.stderr).not.toMatch(/live view: open/);
  });
});
