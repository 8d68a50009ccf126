// The executor for every effect kind a machine can request (completeness checked by the compiler).
import type { HandlerTable } from './handler.js';
import { captureBaseline } from './capture-baseline.js';
import { createCommit } from './create-commit.js';
import { fireHook } from './fire-hook.js';
import { inspectFile } from './inspect-file.js';
import { readClock } from './read-clock.js';
import { readLoopFile } from './read-loop-file.js';
import { readNotes } from './read-notes.js';
import { resetNotes } from './reset-notes.js';
import { restoreSpec } from './restore-spec.js';
import { runCheck } from './run-check.js';
import { scanBoundary } from './scan-boundary.js';
import { spawnAgent } from './spawn-agent.js';
import { waitUntil } from './wait-until.js';
import { writeLoopFile } from './write-loop-file.js';

/** Kind → handler, used by the runner to execute, retry or reconcile journaled effect requests. */
export const handlers: HandlerTable = {
  'baseline.capture': captureBaseline,
  'spec.restore': restoreSpec,
  'agent.spawn': spawnAgent,
  'notes.read': readNotes,
  'boundary.scan': scanBoundary,
  'check.run': runCheck,
  'file.write': writeLoopFile,
  'hook.fire': fireHook,
  'file.inspect': inspectFile,
  'file.read': readLoopFile,
  'notes.reset': resetNotes,
  'clock.read': readClock,
  'wait.until': waitUntil,
  'commit.create': createCommit,
};
