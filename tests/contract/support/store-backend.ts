// What the contract suite needs from a backend: fresh stores on one journal, and ways to damage it
// as an outsider or a crash would. One implementation per backend; the suite never asks which.
import type { JournalStore, LeaseHolder } from '../../../store/journal/journal-store.js';

/** One journal under test (a fresh, empty one), with the outsider's tools. */
export interface BackendHarness {
  /** Another store on the same journal, as another process would open it. */
  open(): JournalStore;
  /** Change record `seq` in place, as someone editing the stored journal would (the chain is not fixed). */
  editRecord(seq: number, edit: (record: Record<string, unknown>) => void): Promise<void>;
  /** Leave a partial record after the last one, as a crash mid-append does; resolves to its length in bytes. Only for `canTear`. */
  tear(): Promise<number>;
  /** Record a lease holder that is live (its process runs) or stale (its process is gone), as another yoke would have. */
  plantLease(state: 'live' | 'stale'): Promise<LeaseHolder>;
  /** Remove everything the harness made (processes included). */
  dispose(): Promise<void>;
}

/** A backend the suite runs against. */
export interface StoreBackend {
  name: string;
  /** can a crash leave a partial record (the store's `capabilities.canTear`)? */
  canTear: boolean;
  /** what a refused record's message tells the user to do, for this backend */
  remedy: RegExp;
  create(): Promise<BackendHarness>;
}
