// The PostgreSQL backend's workspace lease: a row of yoke_lease with its holder, heartbeat and expiry.
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { PoolClient } from 'pg';
import { processStartTime } from '../../../effects/process/process-identity.js';
import type { HeldLease, LeaseHolder, WorkspaceLease } from '../journal-store.js';
import { YokeError } from '../../../errors/yoke-error.js';
import { inTransaction, withClient } from './store-pool.js';
import { assertStoreReady } from './store-schema.js';
import { redactStoreUrl } from './store-url.js';

/** How long a lease lasts without a heartbeat: YOKE_LEASE_TTL_MS, default 30 s (heartbeats every third of it). */
export function leaseTtlMs(env: NodeJS.ProcessEnv = process.env): number {
  const value = Number(env.YOKE_LEASE_TTL_MS);
  return Number.isSafeInteger(value) && value >= 200 ? value : 30_000;
}

interface LeaseRow {
  holder_id: string;
  host: string;
  pid: number;
  start_time: string | null;
  command: string;
  expires_at: Date;
  live: boolean;
}

/**
 * The lease of one workspace in a shared store. A holder is live while its lease has not expired
 * (by the server's clock); the process holding it renews it every third of the TTL, so a holder
 * that stops beating (killed, its machine lost) lapses and is taken over by the next `acquire`.
 */
export class PostgresLease implements WorkspaceLease {
  readonly location: string;

  constructor(
    private readonly url: string,
    private readonly workspace: string,
    private readonly ttlMs: number = leaseTtlMs(),
  ) {
    this.location = `${redactStoreUrl(url)} lease of workspace ${workspace}`;
  }

  async acquire(command: string, onStale: (stale: LeaseHolder) => void): Promise<HeldLease> {
    await assertStoreReady(this.url);
    const id = `${hostname()}:${process.pid}:${randomUUID()}`;
    const { row, stale } = await inTransaction(this.url, async (client) => {
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`yoke-lease:${this.workspace}`]);
      const current = await this.row(client);
      if (current?.live === true) throw heldError(this.location, toHolder(current));
      const taken = await client.query<LeaseRow>(
        `INSERT INTO yoke_lease (workspace, holder_id, host, pid, start_time, command, acquired_at, heartbeat_at, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, now(), now(), now() + $7 * interval '1 millisecond')
         ON CONFLICT (workspace) DO UPDATE SET holder_id = EXCLUDED.holder_id, host = EXCLUDED.host, pid = EXCLUDED.pid,
           start_time = EXCLUDED.start_time, command = EXCLUDED.command, acquired_at = now(), heartbeat_at = now(), expires_at = EXCLUDED.expires_at
         RETURNING holder_id, host, pid, start_time, command, expires_at, true AS live`,
        [this.workspace, id, hostname(), process.pid, processStartTime(process.pid), command, this.ttlMs],
      );
      return { row: taken.rows[0], stale: current };
    });
    if (!row) throw new Error(`${this.location}: the lease just taken cannot be read back`);
    if (stale) onStale(toHolder(stale));
    return new Held(this, id, toHolder(row));
  }

  async holder(): Promise<LeaseHolder | null> {
    await assertStoreReady(this.url);
    const row = await withClient(this.url, (client) => this.row(client));
    return row ? toHolder(row) : null;
  }

  async assertFree(): Promise<void> {
    await assertStoreReady(this.url);
    const row = await withClient(this.url, (client) => this.row(client));
    if (row?.live === true && !(row.host === hostname() && row.pid === process.pid)) throw heldError(this.location, toHolder(row));
  }

  isLive(holder: LeaseHolder): boolean {
    return holder.expiresAt !== undefined && Date.parse(holder.expiresAt) > Date.now();
  }

  /** Extend the lease held as `id`; resolves to the new holder, or null when it is no longer `id`'s. */
  async renewAs(id: string): Promise<LeaseHolder | null> {
    const result = await withClient(this.url, (client) => client.query<LeaseRow>(
      `UPDATE yoke_lease SET heartbeat_at = now(), expires_at = now() + $3 * interval '1 millisecond'
       WHERE workspace = $1 AND holder_id = $2 AND expires_at > now()
       RETURNING holder_id, host, pid, start_time, command, expires_at, true AS live`,
      [this.workspace, id, this.ttlMs],
    ));
    const row = result.rows[0];
    return row ? toHolder(row) : null;
  }

  /** Is the lease still `id`'s, unexpired? */
  async heldAs(id: string): Promise<boolean> {
    const row = await withClient(this.url, (client) => this.row(client));
    return row?.holder_id === id && row.live;
  }

  /** Give up the lease held as `id` (nothing when someone took it over meanwhile). */
  async releaseAs(id: string): Promise<void> {
    await withClient(this.url, (client) => client.query('DELETE FROM yoke_lease WHERE workspace = $1 AND holder_id = $2', [this.workspace, id]));
  }

  /** The heartbeat period. */
  get beatMs(): number {
    return Math.max(100, Math.floor(this.ttlMs / 3));
  }

  private async row(client: PoolClient): Promise<LeaseRow | null> {
    const result = await client.query<LeaseRow>(
      'SELECT holder_id, host, pid, start_time, command, expires_at, expires_at > now() AS live FROM yoke_lease WHERE workspace = $1',
      [this.workspace],
    );
    return result.rows[0] ?? null;
  }
}

/** A lease this process holds: it beats on its own until released or lost. */
class Held implements HeldLease {
  private timer: NodeJS.Timeout | null;
  private lost = false;

  constructor(
    private readonly lease: PostgresLease,
    private readonly id: string,
    private current: LeaseHolder,
  ) {
    this.timer = setInterval(() => void this.beat(), lease.beatMs);
    this.timer.unref(); // the heartbeat never keeps a finished process alive
  }

  get holder(): LeaseHolder {
    return this.current;
  }

  async held(): Promise<boolean> {
    return !this.lost && (await this.lease.heldAs(this.id));
  }

  async renew(): Promise<void> {
    const renewed = this.lost ? null : await this.lease.renewAs(this.id);
    if (renewed === null) {
      this.lost = true;
      throw new YokeError('workspace', `${this.lease.location}: the lease no longer names this yoke (pid ${process.pid}); it lapsed or another worker took it over. Run the command again.`);
    }
    this.current = renewed;
  }

  async release(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    if (!this.lost) await this.lease.releaseAs(this.id);
    this.lost = true;
  }

  private async beat(): Promise<void> {
    try {
      await this.renew();
    } catch {
      // lost (reported by held() and the next renew) or the server is briefly away: the next beat tries again
    }
  }
}

function toHolder(row: LeaseRow): LeaseHolder {
  return { pid: row.pid, startTime: row.start_time, command: row.command, host: row.host, expiresAt: row.expires_at.toISOString() };
}

function heldError(location: string, holder: LeaseHolder): YokeError {
  return new YokeError('workspace', `${location}: another yoke (${holder.command} ${holder.pid} on ${holder.host ?? 'another machine'}) is working in this workspace; wait for it to finish, or for its lease to lapse (${holder.expiresAt ?? 'unknown'}) if it died.`);
}
