// A file system that refuses yoke (a directory where a file belongs, an immutable or read-only file, a
// full disk, a read-only mount) is the environment's fault, not a yoke bug (issue 20, item 4).
import { YokeError } from './yoke-error.js';

/** The errno codes that mean "the file system refused", each with what is wrong and what to do. */
const FAULTS: Record<string, { what: (path: string) => string; fix: string }> = {
  EISDIR: {
    what: (path) => `${path} is a directory where yoke needs a file`,
    fix: 'move that directory out of the way',
  },
  ENOTDIR: {
    what: (path) => `a part of ${path} is a file where yoke needs a directory`,
    fix: 'move that file out of the way',
  },
  EPERM: {
    what: (path) => `${path} may not be changed (it is immutable, append-only or protected; \`lsattr\` shows it)`,
    fix: 'make it writable again (`chattr -i`, `chattr -a`)',
  },
  EACCES: {
    what: (path) => `${path} cannot be read or written by this user (permission denied)`,
    fix: 'give this user access (`chmod u+rw`, or `chown` to this user)',
  },
  ENOSPC: {
    what: (path) => `the file system holding ${path} is full (no space left on device)`,
    fix: 'free some space (`df` shows the file system)',
  },
  EDQUOT: {
    what: (path) => `the disk quota for ${path} is used up`,
    fix: 'free some space or raise the quota',
  },
  EROFS: {
    what: (path) => `${path} is on a read-only file system`,
    fix: 'remount it read-write (or work in a copy of the project that is writable)',
  },
  EIO: {
    what: (path) => `the disk failed reading or writing ${path} (I/O error)`,
    fix: 'check the disk (`dmesg`), copy the project somewhere healthy if it is failing',
  },
};

/**
 * The one-sentence `workspace` YokeError (exit 3) for a file system fault found in `error` or its
 * causes, or null when there is none. `path` names the file when the fault does not (a write on an
 * open file descriptor carries no path). A failure to start a program (`spawn`) is not a file
 * system fault of the workspace and is left alone, and so is a YokeError that already says what is wrong.
 */
export function environmentFault(error: unknown, path?: string): YokeError | null {
  for (let current: unknown = error, depth = 0; current instanceof Error && depth < 8; current = current.cause, depth += 1) {
    if (current instanceof YokeError && current.code === 'workspace') return null;
    const errno = current as NodeJS.ErrnoException;
    const fault = typeof errno.code === 'string' ? FAULTS[errno.code] : undefined;
    if (fault === undefined || (errno.syscall ?? '').startsWith('spawn')) continue;
    const where = errno.path ?? path ?? 'a file in .loop/';
    return new YokeError(
      'workspace',
      `${fault.what(where)}, so yoke stopped without changing anything more; ${fault.fix}, then run the command again (\`yoke run\` resumes where the journal ends).`,
      [],
      { cause: current },
    );
  }
  return null;
}
