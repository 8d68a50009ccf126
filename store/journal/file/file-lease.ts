// The file backend's workspace lease: the lock file (store/journal/file/workspace-lock.ts).
import type { HeldLease, LeaseHolder, WorkspaceLease } from '../journal-store.js';
import { acquireLock, lockHeldError, lockIsLive, readLock } from './workspace-lock.js';
import { environmentFault } from '../../../errors/environment-fault.js';
import { YokeError } from '../../../errors/yoke-error.js';

/**
 * The lease as a lock file holding the owner's pid, kernel start time and command. It never
 * expires: a holder is live while its process is (same pid and start time), so `renew` only
 * checks that the lock still names this process.
 */
export class FileLease implements WorkspaceLease {
  constructor(readonly location: string) {}

  acquire(command: string, onStale: (stale: LeaseHolder) => void): Promise<HeldLease> {
    // the executor turns a refusal (a live holder) into a rejection; a full or read-only disk names the lock
    return new Promise<HeldLease>((resolve) => resolve(this.take(command, onStale))).catch((error: unknown) => {
      throw environmentFault(error, this.location) ?? error;
    });
  }

  private take(command: string, onStale: (stale: LeaseHolder) => void): HeldLease {
    const release = acquireLock(this.location, command, onStale);
    const holder = readLock(this.location);
    if (!holder) throw new Error(`${this.location}: the lock just taken cannot be read back`);
    const path = this.location;
    const stillMine = (): boolean => {
      const now = readLock(path);
      return now !== null && now.pid === holder.pid && now.startTime === holder.startTime;
    };
    return {
      holder,
      held: () => Promise.resolve(stillMine()),
      renew: () => (stillMine() ? Promise.resolve() : Promise.reject(new YokeError('workspace', `${path}: the workspace lock no longer names this yoke (pid ${holder.pid}); someone removed or replaced it. Stop other yoke processes, then run the command again.`))),
      release: () => {
        release();
        return Promise.resolve();
      },
    };
  }

  holder(): Promise<LeaseHolder | null> {
    return Promise.resolve(readLock(this.location));
  }

  assertFree(): Promise<void> {
    const owner = readLock(this.location);
    if (owner && owner.pid !== process.pid && lockIsLive(owner)) return Promise.reject(lockHeldError(this.location, owner));
    return Promise.resolve();
  }

  isLive(holder: LeaseHolder): boolean {
    return lockIsLive(holder);
  }
}
