// `yoke store init`: create or migrate the shared store's schema (DESIGN §14); the file journal needs none.
import { initStore, STORE_SCHEMA_VERSION } from '../journal/postgres/store-schema.js';
import { redactStoreUrl } from '../journal/postgres/store-url.js';
import { initQueue } from '../fleet/fleet-queue.js';
import { storeUrlOf } from './store-selection.js';
import { YokeError } from '../../errors/yoke-error.js';

/** What init did, the URL shown without its secrets. */
export interface StoreInitReport {
  store: string;
  from: number;
  to: number;
}

/** Create or migrate the schema of the store YOKE_STORE (else the `store` directive of the project at `root`) names; none: a usage error, there is nothing to set up. */
export async function initSharedStore(env: NodeJS.ProcessEnv = process.env, root: string | null = null): Promise<StoreInitReport> {
  const url = storeUrlOf(root, env);
  if (url === null) throw new YokeError('usage', 'YOKE_STORE is not set (nor a `store` directive): the file journal needs no setup; set YOKE_STORE=postgres://… to initialize a shared store.');
  const done = await initStore(url);
  await initQueue(url);
  return { store: redactStoreUrl(url), ...done };
}

/** The store schema version this yoke writes. */
export const storeSchemaVersion = STORE_SCHEMA_VERSION;
