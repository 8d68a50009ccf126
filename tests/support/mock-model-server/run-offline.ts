// Run a command (a real agent CLI, or yoke driving one) against a scripted mock model server with no
// way off the machine. The server always runs in this process (its log is live). As root, the command
// runs in a fresh loopback-only network namespace (`unshare -n`), so nothing can leave even if a CLI
// adds endpoints; it reaches the server through loopback-bridge.mjs (127.0.0.1:41000 in the namespace
// → the server's unix socket). Without root the command is not confined (`isolated: false` says so).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MockScript } from './mock-script.js';
import { startMockModelServer, type MockModelServer } from './mock-model-server.js';
import type { LoggedRequest } from './request-log.js';

/** What to run, built once the server's base URL is known. */
export interface OfflineCommand {
  file: string;
  args: string[];
  /** the complete environment (nothing else is inherited) */
  env: Record<string, string>;
  cwd: string;
}

/** How to run. */
export interface OfflineRunOptions {
  script: MockScript;
  /** build the command for the server at `baseUrl` (`http://127.0.0.1:<port>`) */
  command(baseUrl: string): OfflineCommand | Promise<OfflineCommand>;
  /** SIGKILL the whole process group after this long (default 120 s) */
  timeoutMs?: number;
  /** false = never use a network namespace (default: use one when possible) */
  isolate?: boolean;
  /** called with the running server before the command starts (to watch its log live) */
  onServer?(server: MockModelServer): void;
}

/** What happened. */
export interface OfflineRunResult {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** wall time of the command alone, server start excluded (ms) */
  commandMs: number;
  /** every request the server received */
  requests: LoggedRequest[];
  /** true when the command ran in a loopback-only network namespace */
  isolated: boolean;
  timedOut: boolean;
}

const bridgeScript = join(dirname(fileURLToPath(import.meta.url)), 'loopback-bridge.mjs');
/** Inside a fresh namespace every port is free: a fixed one lets the environment be built first. */
const namespacePort = 41_000;

// Bring `lo` up with iproute2, or with python3's ioctl (SIOCGIFFLAGS/SIOCSIFFLAGS) where `ip` is missing.
const loopbackUp = `ip link set lo up 2>/dev/null || python3 -c '
import socket, fcntl, struct
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
flags = struct.unpack("16sH", fcntl.ioctl(s, 0x8913, struct.pack("16sH", b"lo", 0)))[1]
fcntl.ioctl(s, 0x8914, struct.pack("16sH", b"lo", flags | 1))
'`;

// $1 node, $2 bridge script, $3 port, $4 server's unix socket, $5 ready file, $6 timing file; the rest
// is the command. The bridge carries 127.0.0.1:$3 inside the namespace to the in-process server.
const namespaceScript = `
node=$1 bridge=$2 port=$3 socket=$4 ready=$5 timing=$6; shift 6
${loopbackUp} || { echo "run-offline: cannot bring up lo in the network namespace; install iproute2 or python3." >&2; exit 97; }
"$node" "$bridge" "$port" "$socket" "$ready" &
bridge=$!
n=0
while [ ! -s "$ready" ]; do
  if ! kill -0 "$bridge" 2>/dev/null || [ "$n" -gt 1200 ]; then echo "run-offline: the loopback bridge did not start; see its error above." >&2; exit 98; fi
  n=$((n + 1)); sleep 0.02
done
date +%s%N > "$timing"
"$@" </dev/null
rc=$?
date +%s%N >> "$timing"
kill "$bridge" 2>/dev/null; wait "$bridge" 2>/dev/null
exit $rc
`;

let namespaceWorks: boolean | undefined;

/** True when this process is root and `unshare -n` with a working loopback is available (cached). */
export function loopbackNamespaceAvailable(): boolean {
  if (namespaceWorks === undefined) {
    namespaceWorks = process.getuid?.() === 0
      && spawnSync('unshare', ['-n', 'sh', '-c', loopbackUp], { stdio: 'ignore', timeout: 10_000 }).status === 0;
  }
  return namespaceWorks;
}

interface Spawned {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

function spawnGroup(file: string, args: string[], env: Record<string, string>, cwd: string, timeoutMs: number): Promise<Spawned> {
  return new Promise((done, fail) => {
    const child = spawn(file, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-(child.pid ?? 0), 'SIGKILL');
      } catch {
        // already gone
      }
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      fail(error);
    });
    child.on('close', (exitCode, signal) => {
      clearTimeout(timer);
      done({ exitCode, signal, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8'), timedOut });
    });
  });
}

async function runInNamespace(options: OfflineRunOptions, timeoutMs: number): Promise<OfflineRunResult> {
  const dir = await mkdtemp(join(tmpdir(), 'yoke-mock-run-'));
  const files = { socket: join(dir, 'server.sock'), ready: join(dir, 'ready'), timing: join(dir, 'timing') };
  const server = await startMockModelServer({ script: options.script, socketPath: files.socket });
  options.onServer?.(server);
  try {
    const command = await options.command(`http://127.0.0.1:${namespacePort}`);
    const run = await spawnGroup('unshare', [
      '-n', 'sh', '-c', namespaceScript, 'sh', process.execPath, bridgeScript, String(namespacePort), files.socket, files.ready, files.timing, command.file, ...command.args,
    ], command.env, command.cwd, timeoutMs);
    const [start, end] = (await readFile(files.timing, 'utf8').catch(() => '')).trim().split('\n').map(Number);
    return {
      ...run,
      commandMs: start !== undefined && end !== undefined && !Number.isNaN(end) ? (end - start) / 1e6 : Number.NaN,
      requests: [...server.requests],
      isolated: true,
    };
  } finally {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  }
}

async function runInProcess(options: OfflineRunOptions, timeoutMs: number): Promise<OfflineRunResult> {
  const server = await startMockModelServer({ script: options.script });
  options.onServer?.(server);
  try {
    const command = await options.command(server.url);
    const started = performance.now();
    const run = await spawnGroup(command.file, command.args, command.env, command.cwd, timeoutMs);
    return { ...run, commandMs: performance.now() - started, requests: [...server.requests], isolated: false };
  } finally {
    await server.close();
  }
}

/** Run `options.command` against a mock model server playing `options.script`, stdin closed, in its own process group. */
export function runOffline(options: OfflineRunOptions): Promise<OfflineRunResult> {
  const timeoutMs = options.timeoutMs ?? 120_000;
  return options.isolate !== false && loopbackNamespaceAvailable() ? runInNamespace(options, timeoutMs) : runInProcess(options, timeoutMs);
}
