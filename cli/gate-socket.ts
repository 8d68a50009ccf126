// Checking the running yoke's socket before talking to it: it must be a socket of this user that no
// one else can open (`yoke gate`, and `yoke answer` telling a live run). Loads nothing but node:fs.
import { statSync } from 'node:fs';

/** The socket, if it is a socket of this user that no one else can open; else why not. */
export function socketProblem(path: string): string | null {
  try {
    const stat = statSync(path);
    if (!stat.isSocket()) return `${path} is not a socket`;
    if (typeof process.getuid === 'function' && stat.uid !== process.getuid()) return `${path} belongs to another user`;
    if ((stat.mode & 0o077) !== 0) return `${path} is open to other users (mode ${(stat.mode & 0o777).toString(8)})`;
    return null;
  } catch (error) {
    return `${path} is unreachable (${(error as NodeJS.ErrnoException).code ?? String(error)})`;
  }
}

