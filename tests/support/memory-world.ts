// An in-memory world for the real runner: fake executors for every effect kind, with the real
// handlers' recovery policies, answering from per-iteration scripts that freeze on first use (so a
// retried or re-called effect gets the same answer, as idempotent effects do in the real world).
//
// The world outlives simulated yoke processes (it is the file system, git and the agents), and it
// keeps a log of every execution so tests can prove what ran, and how often.
import { EffectAborted, type EffectContext, type EffectHandler, type HandlerTable } from '../../effects/handler.js';
import { handlers as realHandlers } from '../../effects/registry.js';
import { EFFECT_KINDS, type EffectKind, type EffectRequest, type EffectResult, type Usage } from '../../machines/effects.js';

/** What the worker does in one iteration. */
export interface AgentScript {
  notes: 'DONE' | 'IN_PROGRESS';
  /** paths it changes (a `vendor/` path breaks a `no-modify vendor/` boundary) */
  changed: string[];
  usage: Usage | null;
}

/** The agent's behavior when nothing was scripted for its iteration. */
export const DEFAULT_AGENT: AgentScript = { notes: 'IN_PROGRESS', changed: ['src/app.ts'], usage: null };

/** What notes.md and the boundary scan show: the last completed worker call's doing. */
export interface WorldFiles {
  notes: string | null;
  changed: string[];
}

/** The files before any worker ran. */
export function initialFiles(): WorldFiles {
  return { notes: 'STATUS: IN_PROGRESS', changed: [] };
}

/** One execution an executor carried out (it may have been cut short: `completed` false). */
export interface Execution {
  key: string;
  kind: EffectKind;
  completed: boolean;
}

/** Called before every execution; may wait (to pause the runner) or throw (to stop it). */
export type ExecutionGate = (kind: EffectKind, key: string, context: EffectContext) => Promise<void>;

/** Scripts, frozen answers, the world's files, and the execution log. */
export class MemoryWorld {
  readonly executions: Execution[] = [];
  /** commit effect key → sha (what `git log` would show, with its Yoke-Effect trailer) */
  readonly commits = new Map<string, string>();
  private readonly agentQueue: AgentScript[] = [];
  private readonly guardQueue: number[] = [];
  private readonly agents = new Map<number, AgentScript>();
  private readonly guards = new Map<string, number>();
  /** the world's files as the executors see them (the pure model keeps its own copy) */
  readonly files: WorldFiles = initialFiles();

  /** The next iteration without an agent answer yet will get `script`. */
  scriptAgent(script: AgentScript): void {
    this.agentQueue.push(script);
  }

  /** The next guard run without an answer yet will exit with `exitCode`. */
  scriptGuard(exitCode: number): void {
    this.guardQueue.push(exitCode);
  }

  /** The frozen answer of the agent in `iteration` (freezing it now if needed). */
  agentFor(iteration: number): AgentScript {
    let script = this.agents.get(iteration);
    if (!script) {
      script = this.agentQueue.shift() ?? DEFAULT_AGENT;
      this.agents.set(iteration, script);
    }
    return script;
  }

  /** The frozen exit code of check `name` in `iteration`. */
  guardFor(name: string, iteration: number): number {
    const key = `${name}#${iteration}`;
    let exitCode = this.guards.get(key);
    if (exitCode === undefined) {
      exitCode = this.guardQueue.shift() ?? 0;
      this.guards.set(key, exitCode);
    }
    return exitCode;
  }

  /** A handler table whose executors act on this world, after passing `gate`. */
  handlers(gate: ExecutionGate): HandlerTable {
    const table = Object.fromEntries(EFFECT_KINDS.map((kind) => [kind, this.handler(kind, gate)]));
    return table as unknown as HandlerTable;
  }

  private handler<K extends EffectKind>(kind: K, gate: ExecutionGate): EffectHandler<K> {
    const handler: EffectHandler<K> = {
      policy: realHandlers[kind].policy,
      execute: async (params, context) => {
        await gate(kind, context.key, context);
        const execution: Execution = { key: context.key, kind, completed: false };
        this.executions.push(execution);
        if (kind === 'agent.spawn') {
          context.recordProcess({ pid: 4242, startTime: 'boot-1' });
          await gate(kind, context.key, context);
          if (context.signal.aborted) throw new EffectAborted(kind);
        }
        const result = this.respond({ kind, params } as EffectRequest, this.files) as EffectResult<K>;
        if (kind === 'commit.create') this.commits.set(context.key, (result as EffectResult<'commit.create'>).sha ?? '');
        execution.completed = true;
        return result;
      },
    };
    if (kind === 'commit.create') {
      handler.reconcile = (_params, context) => {
        const sha = this.commits.get(context.key);
        return Promise.resolve((sha === undefined ? null : { sha }) as EffectResult<K> | null);
      };
    }
    return handler;
  }

  /**
   * The world's answer to `request`, acting on `files` (a worker call rewrites them). Scripts are
   * frozen on first use, so every later call for the same iteration gets the same answer.
   */
  respond(request: EffectRequest, files: WorldFiles): EffectResult<EffectKind> {
    switch (request.kind) {
      case 'baseline.capture':
        return { specFiles: Object.fromEntries(request.params.specFiles.map((file) => [file, `sha-${file}`])), tree: 'tree-0' };
      case 'spec.restore':
        return { restored: Object.keys(request.params.specFiles), displaced: {} };
      case 'agent.spawn': {
        const script = this.agentFor(request.params.iteration);
        files.notes = `STATUS: ${script.notes}`;
        files.changed = script.changed;
        return { outcome: 'exited', exitCode: 0, signal: null, durationMs: 1000, usage: script.usage, transcript: `.journal/transcripts/worker-${request.params.iteration}.log` };
      }
      case 'notes.read':
        return { firstLine: files.notes };
      case 'boundary.scan':
        return { changed: files.changed };
      case 'check.run': {
        const exitCode = this.guardFor(request.params.name, request.params.iteration);
        return { outcome: 'exited', exitCode, signal: null, durationMs: 200, excerpt: exitCode === 0 ? 'ok' : 'failed' };
      }
      case 'file.write':
        return { sha256: 'f'.repeat(64) };
      case 'hook.fire':
        return { started: true };
      case 'commit.create':
        return { sha: `commit-${request.params.iteration}` };
      default:
        throw new Error(`the memory world does not implement ${request.kind}`);
    }
  }
}
