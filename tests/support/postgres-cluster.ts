// A real, throwaway PostgreSQL cluster for tests and benchmarks: Debian's server binaries, a temp
// data directory, 127.0.0.1 only, a free port, password auth; stopped and removed at the end.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { basename, dirname, join } from 'node:path';

/** A running cluster: its superuser URL (one database per test file comes from `createDatabase`). */
export interface PostgresCluster {
  readonly host: string;
  readonly port: number;
  readonly user: string;
  readonly password: string;
  /** the data directory (removed by `stop`) */
  readonly dataDir: string;
  /** `postgres://user:password@127.0.0.1:port/<database>` */
  url(database?: string): string;
  stop(): void;
}

/** The server binaries: the newest /usr/lib/postgresql/<major>/bin holding initdb. */
export function postgresBinDir(): string {
  const root = '/usr/lib/postgresql';
  const majors = existsSync(root) ? readdirSync(root).filter((name) => existsSync(join(root, name, 'bin', 'initdb'))) : [];
  const newest = majors.sort((a, b) => Number(b) - Number(a))[0];
  if (newest === undefined) {
    throw new Error('PostgreSQL server binaries are missing (no /usr/lib/postgresql/<major>/bin/initdb): install Debian\'s `postgresql` package (apt-get install -y postgresql).');
  }
  return join(root, newest, 'bin');
}

/** A TCP port on 127.0.0.1 that was free a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Start a cluster. As root, initdb and pg_ctl run as the `postgres` user (PostgreSQL refuses to
 * run as root) on a temp directory chowned to it. `durable: false` turns fsync off (tests);
 * benchmarks keep PostgreSQL's defaults. Throws, saying why, when the server cannot start.
 */
export async function startPostgresCluster(options: { durable?: boolean } = {}): Promise<PostgresCluster> {
  const bin = postgresBinDir();
  const asRoot = userInfo().uid === 0;
  const base = mkdtempSync(join(tmpdir(), 'yoke-pg-'));
  chmodSync(base, 0o755);
  const dataDir = join(base, 'data');
  const user = 'yoke';
  const password = 'yoke-test-secret';
  const pwfile = join(base, 'pwfile');
  writeFileSync(pwfile, `${password}\n`);
  if (asRoot) {
    const { uid, gid } = postgresUser();
    chownSync(base, uid, gid);
    chownSync(pwfile, uid, gid);
  }
  const run = (program: string, args: string[]): void => {
    const [command, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', join(bin, program), ...args]] : [join(bin, program), args];
    const result = spawnSync(command, argv, { encoding: 'utf8', cwd: base });
    if (result.status !== 0) {
      throw new Error(`PostgreSQL ${program} failed (exit ${result.status ?? result.signal}): ${(result.stderr || result.stdout).trim()}`);
    }
  };
  try {
    // initdb is the slow part on a loaded machine: do it once per server version and copy the result.
    const template = join(tmpdir(), `yoke-pg-template-${basename(dirname(bin))}-v1`);
    if (!existsSync(join(template, 'complete'))) {
      const fresh = `${template}.${process.pid}`;
      rmSync(fresh, { recursive: true, force: true });
      mkdirSync(fresh, { mode: 0o755 });
      if (asRoot) chownSync(fresh, postgresUser().uid, postgresUser().gid);
      run('initdb', ['-D', join(fresh, 'data'), '-U', user, `--pwfile=${pwfile}`, '--auth-host=scram-sha-256', '--auth-local=scram-sha-256', '-E', 'UTF8', '--locale=C.UTF-8', '--no-instructions']);
      writeFileSync(join(fresh, 'complete'), '');
      try {
        renameSync(fresh, template);
      } catch {
        rmSync(fresh, { recursive: true, force: true }); // another process made it first
      }
    }
    cpSync(join(template, 'data'), dataDir, { recursive: true, preserveTimestamps: true });
    if (asRoot) chownTree(dataDir, postgresUser());
    const settings = [
      "listen_addresses = '127.0.0.1'",
      `unix_socket_directories = '${base}'`,
      'max_connections = 200',
      ...(options.durable === true ? [] : ['fsync = off', 'synchronous_commit = off', 'full_page_writes = off']),
    ];
    writeFileSync(join(dataDir, 'postgresql.auto.conf'), `${settings.join('\n')}\n`);
    let port = 0;
    for (let attempt = 1; ; attempt += 1) {
      port = await freePort();
      try {
        run('pg_ctl', ['-D', dataDir, '-l', join(base, 'server.log'), '-w', '-t', '60', '-o', `-p ${port}`, 'start']);
        break;
      } catch (error) {
        if (attempt >= 3) throw error; // the port was taken meanwhile: try another, a few times
      }
    }
    const stop = (): void => {
      try {
        run('pg_ctl', ['-D', dataDir, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(base, { recursive: true, force: true });
      }
    };
    return {
      host: '127.0.0.1', port, user, password, dataDir,
      url: (database = 'postgres') => `postgres://${user}:${password}@127.0.0.1:${port}/${database}`,
      stop,
    };
  } catch (error) {
    rmSync(base, { recursive: true, force: true });
    throw error;
  }
}

function postgresUser(): { uid: number; gid: number } {
  const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
  return { uid, gid };
}

function chownTree(path: string, owner: { uid: number; gid: number }): void {
  chownSync(path, owner.uid, owner.gid);
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    const child = join(path, entry.name);
    if (entry.isDirectory()) chownTree(child, owner);
    else chownSync(child, owner.uid, owner.gid);
  }
}
