// An EffectContext for tests that records what a handler did with it.
import type { EffectContext } from '../../../effects/handler.js';

/** The context plus everything it observed. */
export interface TestContext {
  ctx: EffectContext;
  stdout: () => string;
  stderr: () => string;
  warnings: string[];
  processes: { pid: number; startTime: string | null }[];
  abort: AbortController;
}

/** A context for `root`/`loopDir` with run `RUN1` and key `RUN1/7/0` unless overridden. */
export function makeContext(root: string, loopDir: string, overrides: Partial<EffectContext> = {}): TestContext {
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  const warnings: string[] = [];
  const processes: { pid: number; startTime: string | null }[] = [];
  const abort = new AbortController();
  const ctx: EffectContext = {
    root,
    loopDir,
    run: 'RUN1',
    key: 'RUN1/7/0',
    output: {
      stdout: (chunk) => out.push(Buffer.from(chunk)),
      stderr: (chunk) => err.push(Buffer.from(chunk)),
    },
    signal: abort.signal,
    recordProcess: (info) => processes.push(info),
    warn: (message) => warnings.push(message),
    ...overrides,
  };
  return {
    ctx,
    stdout: () => Buffer.concat(out).toString(),
    stderr: () => Buffer.concat(err).toString(),
    warnings,
    processes,
    abort,
  };
}
