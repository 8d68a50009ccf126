// The contract harness for the file backend: a temp folder per journal, real processes for leases.
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { processStartTime } from '../../../effects/process/process-identity.js';
import { FileJournalStore } from '../../../store/journal/file/file-journal-store.js';
import type { LeaseHolder } from '../../../store/journal/journal-store.js';
import { editRecord, journalLines } from '../../support/journal-edit.js';
import { waitUntil } from '../../support/process-liveness.js';
import type { BackendHarness, StoreBackend } from './store-backend.js';

/** The file backend, in a temp folder whose `.journal/` does not exist yet. */
export const fileBackend: StoreBackend = {
  name: 'file',
  canTear: true,
  remedy: /restore it from a backup or start over with a new \.loop\/\.journal/,
  create(): Promise<BackendHarness> {
    const dir = mkdtempSync(join(tmpdir(), 'yoke-contract-'));
    const path = join(dir, '.journal', 'journal.jsonl');
    const lock = join(dir, '.journal', 'lock');
    const children: ChildProcess[] = [];
    return Promise.resolve({
      open: () => new FileJournalStore(path, { lockPath: lock, warn: () => undefined }),
      editRecord: (seq, edit) => Promise.resolve(editRecord(path, seq, edit)),
      tear: () => {
        const half = (journalLines(path).at(-1) ?? '{"v":1').slice(0, 20);
        appendFileSync(path, half);
        return Promise.resolve(Buffer.byteLength(half));
      },
      plantLease: async (state) => {
        const child = spawn('sleep', [state === 'live' ? '30' : '0'], { stdio: 'ignore' });
        children.push(child);
        const pid = child.pid ?? 0;
        let startTime: string | null = null;
        await waitUntil(() => (startTime = processStartTime(pid)) !== null || child.exitCode !== null, 2_000, 5);
        if (state === 'stale') await new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)));
        const holder: LeaseHolder = { pid, startTime, command: 'yoke run' };
        mkdirSync(dirname(lock), { recursive: true });
        writeFileSync(lock, `${JSON.stringify(holder)}\n`);
        return holder;
      },
      dispose: () => {
        for (const child of children) child.kill('SIGKILL');
        rmSync(dir, { recursive: true, force: true });
        return Promise.resolve();
      },
    });
  },
};
