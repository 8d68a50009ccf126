// A real git remote over HTTP with Basic auth, for tests: node's http server in front of `git http-backend` (CGI), on 127.0.0.1.
import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

/** A running server: the URL of a repository under its root, the Authorization headers it saw, and how to close it. */
export interface GitHttpServer {
  /** `http://127.0.0.1:<port>/<name>` (no credentials) */
  url(name: string): string;
  /** every request: its path and whether it carried the right credentials */
  readonly requests: Array<{ path: string; authorized: boolean }>;
  close(): Promise<void>;
}

/**
 * Serve the bare repositories under `root` (fetch and push) to clients that send `user`/`password`
 * by Basic auth; anyone else gets 401, as a hosted git server answers a clone without a token.
 */
export async function startGitHttpServer(root: string, user: string, password: string): Promise<GitHttpServer> {
  const expected = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
  const requests: Array<{ path: string; authorized: boolean }> = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const authorized = req.headers.authorization === expected;
    requests.push({ path: url.pathname, authorized });
    if (!authorized) {
      res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="git"' }).end();
      return;
    }
    backend(root, user, url, req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    url: (name) => `http://127.0.0.1:${port}/${name}`,
    requests,
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

/** One request through `git http-backend`: CGI variables in, its headers and body back out. */
function backend(root: string, user: string, url: URL, req: IncomingMessage, res: ServerResponse): void {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? '',
    GIT_PROJECT_ROOT: root,
    GIT_HTTP_EXPORT_ALL: '1',
    PATH_INFO: decodeURIComponent(url.pathname),
    QUERY_STRING: url.search.slice(1),
    REQUEST_METHOD: req.method ?? 'GET',
    REMOTE_USER: user,
    REMOTE_ADDR: '127.0.0.1',
    CONTENT_TYPE: req.headers['content-type'] ?? '',
    ...(req.headers['content-length'] === undefined ? {} : { CONTENT_LENGTH: req.headers['content-length'] }),
    ...(req.headers['content-encoding'] === undefined ? {} : { HTTP_CONTENT_ENCODING: req.headers['content-encoding'] }),
    ...(req.headers['git-protocol'] === undefined ? {} : { GIT_PROTOCOL: String(req.headers['git-protocol']) }),
  };
  const cgi = spawn('git', ['http-backend'], { env, stdio: ['pipe', 'pipe', 'ignore'] });
  req.pipe(cgi.stdin);
  let head = Buffer.alloc(0);
  let headersDone = false;
  cgi.stdout.on('data', (chunk: Buffer) => {
    if (headersDone) {
      res.write(chunk);
      return;
    }
    head = Buffer.concat([head, chunk]);
    const end = head.indexOf('\r\n\r\n');
    if (end === -1) return;
    headersDone = true;
    let status = 200;
    for (const line of head.subarray(0, end).toString('latin1').split('\r\n')) {
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).trim();
      const value = line.slice(colon + 1).trim();
      if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10);
      else res.setHeader(name, value);
    }
    res.writeHead(status);
    res.write(head.subarray(end + 4));
  });
  cgi.on('close', () => {
    if (!headersDone) res.writeHead(500);
    res.end();
  });
}
