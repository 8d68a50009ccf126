// Talking to the running yoke over its private socket (`yoke gate`, and `yoke answer` telling a live
// run): the socket must be one of this user that no one else can open; one line out, one reply back.
// Loads nothing but node:fs and node:net.
import { statSync } from 'node:fs';
import { connect } from 'node:net';

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


/** Send `line` (a newline is added), and resolve to everything the other side wrote before closing; rejects on an error or after `timeoutMs`. */
export function exchangeLine(path: string, line: string, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(path);
    let reply = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within ${timeoutMs / 1000} s`));
    }, timeoutMs);
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.write(`${line}\n`));
    socket.on('data', (chunk: string) => {
      reply += chunk;
    });
    socket.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(reply);
    });
  });
}
