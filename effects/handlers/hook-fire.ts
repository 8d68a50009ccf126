// `hook.fire`: start a hook command and move on; its failure is only ever a warning (spec 5.5).
import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import type { EffectHandler } from '../handler.js';
import { safeKey } from '../fs/safe-key.js';
import { journalEntry } from '../../config/workspace-layout.js';
import { childEnvironment } from '../process/child-environment.js';

/** Hooks started by this process that have not finished yet. */
const running = new Set<Promise<void>>();

/**
 * Start `sh -c command` detached (own process group, stdin closed) in the project root with
 * YOKE_EVENT, YOKE_RUN, YOKE_ITERATION and YOKE_LOOP_DIR (the store's credentials withheld), its stdout and stderr going only to
 * `.loop/.journal/hooks/<key>.log`. Returns at once (`started: false` only when it could not even
 * be spawned); a non-zero exit, a killing signal or a failure to start becomes one `ctx.warn` line
 * naming the log. Never awaited by the machine and never re-executed (`surface`).
 */
export const fireHook: EffectHandler<'hook.fire'> = {
  policy: 'surface',
  execute(params, ctx) {
    const loopDir = resolve(ctx.loopDir);
    const dir = journalEntry(loopDir, 'hooks');
    mkdirSync(dir, { recursive: true });
    const log = join(dir, `${safeKey(ctx.key)}.log`);
    const shownLog = relative(resolve(ctx.root), log) || log;
    const fd = openSync(log, 'a', 0o644);
    writeSync(fd, `# yoke hook ${params.event}, iteration ${params.iteration}, call ${ctx.key}: ${params.command.replace(/\n/g, ' ')}\n`);
    const warn = (why: string): void => ctx.warn(`hook ${params.event} failed (${why}); see ${shownLog}`);
    let started = false;
    const done = new Promise<void>((settle) => {
      let child;
      try {
        child = spawn('sh', ['-c', params.command], {
          cwd: ctx.root,
          env: {
            ...childEnvironment(),
            YOKE_EVENT: params.event,
            YOKE_RUN: ctx.run,
            YOKE_ITERATION: String(params.iteration),
            YOKE_LOOP_DIR: loopDir,
          },
          detached: true,
          stdio: ['ignore', fd, fd],
        });
      } catch (error) {
        warn(`could not start: ${error instanceof Error ? error.message : String(error)}`);
        settle();
        return;
      }
      started = child.pid !== undefined;
      let warned = false;
      const finish = (why: string | null): void => {
        if (why !== null && !warned) warn(why);
        warned ||= why !== null;
        settle();
      };
      child.once('error', (error) => finish(`could not start: ${error.message}`));
      child.once('exit', (code, signal) => finish(code === 0 ? null : signal === null ? `exit ${code}` : `killed by ${signal}`));
      child.unref(); // a hook never keeps yoke alive; settleHooks() waits for it explicitly
    });
    closeSync(fd); // the child holds its own copy
    const tracked = done.finally(() => running.delete(tracked));
    running.add(tracked);
    return Promise.resolve({ started });
  },
};

/** Wait until every hook started by this process has finished (and warned), or `timeoutMs` passed. */
export async function settleHooks(timeoutMs: number): Promise<void> {
  if (running.size === 0) return;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolveTimeout) => (timer = setTimeout(resolveTimeout, timeoutMs)));
  await Promise.race([Promise.all(running), timeout]);
  clearTimeout(timer);
}
