// Where a live run's gate listens, for `yoke answer` (DESIGN §13): `.loop/.journal/gate.json`, 0600,
// written when the gate opens and removed when it closes. It names the run, the yoke process (pid +
// start time, so a pointer left by a killed yoke is known stale) and the socket, and it carries the
// token an operator message must show. Reading it is a `secret` call for an agent (policy/paths/
// secret-path.ts): the token is what tells an operator's answer from an agent answering itself.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { isSameProcess, processStartTime } from '../../effects/process/process-identity.js';

/** What the pointer says. */
export interface GatePointer {
  v: 1;
  run: string;
  pid: number;
  startTime: string | null;
  socket: string;
  token: string;
}

/** A fresh token for a run's operator messages. */
export function newGateToken(): string {
  return randomBytes(24).toString('hex');
}

/** Write the pointer for this process (temp file + rename, mode 0600). */
export function writeGatePointer(path: string, run: string, socket: string, token: string): void {
  mkdirSync(dirname(path), { recursive: true });
  const pointer: GatePointer = { v: 1, run, pid: process.pid, startTime: processStartTime(process.pid), socket, token };
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(pointer)}\n`, { mode: 0o600 });
  renameSync(temporary, path);
}

/** Remove the pointer, if it is still this process's. */
export function removeGatePointer(path: string): void {
  const pointer = readGatePointer(path);
  if (pointer !== null && pointer.pid !== process.pid) return;
  rmSync(path, { force: true });
}

/** The pointer of a live yoke; null when there is none, it is not one, or its yoke is gone. */
export function liveGatePointer(path: string): GatePointer | null {
  const pointer = readGatePointer(path);
  return pointer !== null && isSameProcess(pointer.pid, pointer.startTime) ? pointer : null;
}

function readGatePointer(path: string): GatePointer | null {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const p = value as Partial<GatePointer>;
  const ok = p.v === 1 && typeof p.run === 'string' && typeof p.pid === 'number' && (p.startTime === null || typeof p.startTime === 'string')
    && typeof p.socket === 'string' && typeof p.token === 'string';
  return ok ? (p as GatePointer) : null;
}
