// The executor for every effect kind a machine can request (completeness checked by the compiler).
import type { HandlerTable } from './handler.js';
import { checkAcceptance } from './handlers/acceptance-check.js';
import { captureBaseline } from './handlers/baseline-capture.js';
import { createCommit } from './handlers/commit-create.js';
import { fireHook } from './handlers/hook-fire.js';
import { inspectFile } from './handlers/file-inspect.js';
import { readClock } from './handlers/clock-read.js';
import { readContext } from './handlers/context-read.js';
import { readLoopFile } from './handlers/file-read.js';
import { readNotes } from './handlers/notes-read.js';
import { resetNotes } from './handlers/notes-reset.js';
import { restoreSpec } from './handlers/spec-restore.js';
import { runCheck } from './handlers/check-run.js';
import { scanBoundary } from './handlers/boundary-scan.js';
import { spawnAgent } from './handlers/agent-spawn.js';
import { passStory } from './handlers/story-pass.js';
import { waitUntil } from './handlers/wait-until.js';
import { restoreProtectedFiles } from './handlers/protect-restore.js';
import { scanProtected } from './handlers/protect-scan.js';
import { writeLoopFile } from './handlers/file-write.js';
import { createWorktree } from './handlers/worktree-create.js';
import { commitCandidate } from './handlers/candidate-commit.js';
import { rebaseCandidate } from './handlers/candidate-rebase.js';
import { rejectCandidate } from './handlers/candidate-reject.js';
import { landStory } from './handlers/story-land.js';
import { removeWorktree } from './handlers/worktree-remove.js';

/** Kind → handler, used by the runner to execute, retry or reconcile journaled effect requests. */
export const handlers: HandlerTable = {
  'baseline.capture': captureBaseline,
  'spec.restore': restoreSpec,
  'agent.spawn': spawnAgent,
  'notes.read': readNotes,
  'boundary.scan': scanBoundary,
  'check.run': runCheck,
  'acceptance.check': checkAcceptance,
  'file.write': writeLoopFile,
  'hook.fire': fireHook,
  'file.inspect': inspectFile,
  'file.read': readLoopFile,
  'notes.reset': resetNotes,
  'clock.read': readClock,
  'wait.until': waitUntil,
  'protect.scan': scanProtected,
  'protect.restore': restoreProtectedFiles,
  'commit.create': createCommit,
  'story.pass': passStory,
  'context.read': readContext,
  'worktree.create': createWorktree,
  'candidate.commit': commitCandidate,
  'candidate.rebase': rebaseCandidate,
  'candidate.reject': rejectCandidate,
  'story.land': landStory,
  'worktree.remove': removeWorktree,
};
