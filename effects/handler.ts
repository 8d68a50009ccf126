// The contract every effect handler meets: execute (I/O) with journaled params, plus a recovery policy.
import type { EffectKind, EffectParams, EffectResult, ExecutedToolCall } from '../machines/effects.js';
import type { SecretValue } from './process/redact-secrets.js';

/**
 * What happens on restart to an effect that has `effect.started` but no `effect.completed`:
 * - `retry`: idempotent, execute again (spec restore, guards, notes read, file writes);
 * - `reconcile`: look at the world first (`reconcile()`), execute only if it did not happen (commit);
 * - `surface`: never re-executed; an interruption event goes into the machine (agent calls, hooks).
 */
export type RecoveryPolicy = 'retry' | 'reconcile' | 'surface';

/** Where live process output goes (the terminal, or nowhere with --quiet/--json). */
export interface OutputSink {
  stdout(chunk: Buffer | string): void;
  stderr(chunk: Buffer | string): void;
}

/** Everything an executor may use besides its params. */
export interface EffectContext {
  /** absolute path of the project root (the git work tree) */
  root: string;
  /** absolute path of `.loop/` */
  loopDir: string;
  /** the run id (a ULID) */
  run: string;
  /** the effect's idempotency key: `<run>/<seq>/<index>`; unique per request, stable across replays */
  key: string;
  /** live output of child processes */
  output: OutputSink;
  /** aborted on SIGINT/SIGTERM: executors kill their process group at once and reject */
  signal: AbortSignal;
  /** journal a spawned child's identity (pid + start time) durably before waiting for it */
  recordProcess(info: { pid: number; startTime: string | null }): void;
  /** a one-line warning for stderr (never written to agent-visible files) */
  warn(message: string): void;
  /**
   * Parallel stories (DESIGN §10): for an effect of a lane, `root`/`loopDir` are the lane's worktree
   * and these are the main working tree's; absent for every other effect (they are `root`/`loopDir`).
   */
  projectRoot?: string;
  projectLoopDir?: string;
  /**
   * The blob of each spec file as the run holds it when this effect runs (name → sha256, null = held
   * absent), folded from the journal up to here: never a read of the world, so replay folds the same.
   * It is newer than the blobs a request names only when a journaled input changed it after the
   * request was decided: the user's edit of prd.yaml, journaled as `yoke run` resumes while an effect
   * decided before the stop is still owed. Absent for the effects of a parallel run (the lane driver runs them).
   */
  heldSpecFiles?: Readonly<Record<string, string | null>>;
  /** the tool-call gate of the run (DESIGN §13), for agent calls with tool control on or advisory; absent = none */
  toolGate?: ToolGateLink;
  /**
   * Values yoke holds itself that journaled text must never contain (the journal store's password:
   * effects/process/child-environment.ts), redacted like secret environment values; absent = none.
   */
  secrets?: readonly SecretValue[];
}

/** How an agent call reaches the run's tool-call gate. */
export interface ToolGateLink {
  /** the private socket `yoke gate` asks ($YOKE_GATE_SOCKET) */
  socketPath: string;
  /** the hook command line for `agent` (the running yoke's own `gate --agent <agent>`), shell-quoted */
  command(agent: string): string;
  /** the hold ids the gate ruled during this call, in order; without `answeredToo`, only those no operator answered live */
  heldInCall(answeredToo?: boolean): string[];
  /** of the calls the CLI ran during this call, those no ruling of the gate let through (DESIGN §13) */
  unruled(executed: readonly ExecutedToolCall[]): ExecutedToolCall[];
}

/** One effect kind's I/O half. */
export interface EffectHandler<K extends EffectKind> {
  policy: RecoveryPolicy;
  execute(params: EffectParams<K>, ctx: EffectContext): Promise<EffectResult<K>>;
  /** For `reconcile` handlers: the result if the effect already happened, else null. */
  reconcile?(params: EffectParams<K>, ctx: EffectContext): Promise<EffectResult<K> | null>;
}

/** A handler for every kind, checked by the compiler. */
export type HandlerTable = { [K in EffectKind]: EffectHandler<K> };

/** Thrown by an executor when the run was interrupted (SIGINT/SIGTERM) while it worked. */
export class EffectAborted extends Error {
  constructor(readonly kind: EffectKind) {
    super(`${kind} was interrupted`);
    this.name = 'EffectAborted';
  }
}
