// The fleet's job queue on pg-boss (DESIGN §14): one queue of workspaces to run, one job active per workspace, and its dead-letter queue.
import type PgBoss from 'pg-boss';
import { YokeError } from '../../errors/yoke-error.js';
import { redactStoreUrl } from '../journal/postgres/store-url.js';

/** The queue `yoke queue add` sends to and `yoke worker` fetches from. */
export const JOB_QUEUE = 'yoke-jobs';
/** Where a job goes with its reason when it cannot succeed (a repository that cannot be cloned) or ran out of attempts. */
export const DEAD_LETTER_QUEUE = 'yoke-jobs-dead';
/** Attempts a job gets before it goes to the dead-letter queue (a worker stopped or lost counts as one). */
export const JOB_RETRY_LIMIT = 10;
/**
 * pg-boss's own expiry of an active job: only a backstop (its ceiling is 24 h). A dead worker is
 * found by its heartbeat (yoke_worker) well before that, and its jobs handed back.
 */
const JOB_EXPIRE_SECONDS = 23 * 60 * 60;

/** What a queued job asks for. */
export interface JobData {
  /** the git URL to clone, without credentials (enqueueJob strips them; the worker clones with its own) */
  repository: string;
  ref: string | null;
  mode: string | null;
  workspace: string;
}

/** A started pg-boss on the store at `url`; `supervise` runs its maintenance (workers only). Errors never show the URL's secrets. */
export async function openBoss(url: string, options: { supervise: boolean; onError?: (message: string) => void }): Promise<PgBoss> {
  const { default: Boss } = await import('pg-boss');
  const boss = new Boss({ connectionString: url, max: 3, supervise: options.supervise, schedule: false, migrate: false, application_name: 'yoke' });
  boss.on('error', (error: unknown) => options.onError?.(hideSecrets(url, error)));
  try {
    await boss.start();
  } catch (error) {
    await boss.stop({ graceful: false, wait: false }).catch(() => undefined);
    throw new YokeError('workspace', `the job queue of the store ${redactStoreUrl(url)} cannot be used: ${hideSecrets(url, error)}; run \`yoke store init\` (with YOKE_STORE set), then try again.`, [], { cause: error });
  }
  return boss;
}

/** Create pg-boss's schema (or migrate it) and the two queues; `yoke store init` calls it, and it is safe to repeat. */
export async function initQueue(url: string): Promise<void> {
  const { default: Boss } = await import('pg-boss');
  const boss = new Boss({ connectionString: url, max: 2, supervise: false, schedule: false, migrate: true, application_name: 'yoke' });
  boss.on('error', () => undefined);
  await boss.start();
  try {
    await boss.createQueue(DEAD_LETTER_QUEUE, { name: DEAD_LETTER_QUEUE, policy: 'standard', retryLimit: 0 });
    // stately: at most one job per state (created, retry, active) and singletonKey (the workspace)
    await boss.createQueue(JOB_QUEUE, {
      name: JOB_QUEUE,
      policy: 'stately',
      retryLimit: JOB_RETRY_LIMIT,
      retryDelay: 2,
      expireInSeconds: JOB_EXPIRE_SECONDS,
      deadLetter: DEAD_LETTER_QUEUE,
    });
  } finally {
    await boss.stop({ graceful: false, wait: true });
  }
}

/** Close a pg-boss started by openBoss. */
export async function closeBoss(boss: PgBoss): Promise<void> {
  await boss.stop({ graceful: false, wait: true, close: true }).catch(() => undefined);
}

/** An error's message without the store URL's secrets (pg-boss may echo its connection string). */
export function hideSecrets(url: string, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split(url).join(redactStoreUrl(url)).replace(/postgres(ql)?:\/\/[^\s@]*@/gi, 'postgres://');
}
