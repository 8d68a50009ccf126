// Commands that reach the network (DESIGN §13 `network`, loopback included): transfer tools, remote
// shells, and package managers' downloading subcommands. Files they upload are read (a secret is
// `secret`: that is exfiltration); files they save are written.
import type { Finding } from '../classification.js';
import type { Arg, CommandContext, CommandRule } from '../shell/command-context.js';
import { splitOptions } from '../shell/split-options.js';
import { operatorCommand, yokeVia } from './yoke-rules.js';

/** Commands that always talk to the network. */
export const NETWORK_TOOLS = [
  'curl', 'wget', 'nc', 'ncat', 'netcat', 'socat', 'telnet', 'ssh', 'scp', 'sftp', 'ftp', 'ping', 'ping6', 'dig', 'nslookup',
  'host', 'http', 'https', 'xh', 'aria2c', 'gh', 'mosh', 'openssl', 'traceroute', 'whois', 'lftp', 'axel', 'nmap',
] as const;

/** Package managers and the subcommands that download (`*` = any subcommand, none = install too). */
const DOWNLOADERS: { readonly [name: string]: readonly string[] } = {
  npm: ['install', 'i', 'ci', 'add', 'update', 'up', 'upgrade', 'publish', 'view', 'info', 'show', 'outdated', 'audit', 'exec', 'x', 'create', 'init', 'login', 'whoami', 'ping', 'dist-tag', 'search', 'unpublish', 'deprecate', 'owner', 'install-test', 'it'],
  npx: ['*'], pnpx: ['*'], bunx: ['*'],
  pnpm: ['install', 'i', 'add', 'update', 'up', 'dlx', 'fetch', 'publish', 'outdated', 'audit', 'create', 'exec'],
  yarn: ['', 'install', 'add', 'upgrade', 'up', 'dlx', 'publish', 'outdated', 'audit', 'create', 'info', 'npm'],
  bun: ['install', 'i', 'add', 'update', 'x', 'create', 'publish', 'outdated'],
  pip: ['install', 'download', 'search', 'wheel'], pip3: ['install', 'download', 'search', 'wheel'],
  uv: ['add', 'sync', 'lock', 'pip', 'tool', 'run', 'venv', 'python', 'publish'], uvx: ['*'], pipx: ['*'],
  poetry: ['install', 'add', 'update', 'lock', 'publish', 'search'],
  cargo: ['install', 'fetch', 'update', 'add', 'publish', 'search', 'login'],
  go: ['get', 'install', 'mod'],
  gem: ['install', 'update', 'fetch', 'push', 'search'], bundle: ['', 'install', 'update', 'add'],
  apt: ['install', 'update', 'upgrade', 'full-upgrade', 'download', 'source'], 'apt-get': ['install', 'update', 'upgrade', 'dist-upgrade', 'download', 'source'],
  brew: ['install', 'update', 'upgrade', 'tap', 'fetch', 'reinstall'], dnf: ['install', 'update', 'upgrade'], yum: ['install', 'update'],
  apk: ['add', 'update', 'upgrade', 'fetch'], conda: ['install', 'update', 'create'], composer: ['', 'install', 'require', 'update', 'create-project'],
  docker: ['pull', 'push', 'login', 'search', 'run', 'build', 'compose'], podman: ['pull', 'push', 'login', 'search', 'run', 'build'],
  deno: ['install', 'cache', 'add', 'run', 'upgrade'], mvn: ['*'], gradle: ['*'], dotnet: ['restore', 'add', 'tool', 'new', 'build', 'publish'],
};

/** The package managers `runPackageManager` knows. */
export const PACKAGE_MANAGERS = Object.keys(DOWNLOADERS);

function uploads(args: readonly Arg[]): Arg[] {
  const files: Arg[] = [];
  args.forEach((arg, i) => {
    const text = arg.text ?? '';
    const next = args[i + 1];
    if (['-T', '--upload-file', '-K', '--config', '--post-file', '--body-file', '-i', '--identity'].includes(text) && next !== undefined) files.push(next);
    if (['-d', '--data', '--data-binary', '--data-raw', '--data-urlencode', '--json', '-F', '--form'].includes(text) && next?.text != null) {
      const at = next.text.indexOf('@');
      const lt = next.text.indexOf('<');
      const from = at !== -1 ? at : lt;
      if (from !== -1 && text !== '--data-raw') files.push({ text: next.text.slice(from + 1).split(';')[0] ?? '', glob: next.glob });
    }
    const eq = /^--(post-file|body-file|upload-file|config)=(.*)$/.exec(text);
    if (eq?.[2] !== undefined) files.push({ text: eq[2], glob: arg.glob });
  });
  return files;
}

function saves(args: readonly Arg[]): Arg[] {
  const files: Arg[] = [];
  args.forEach((arg, i) => {
    const text = arg.text ?? '';
    const next = args[i + 1];
    if (['-o', '--output', '-O', '--output-document', '-D', '--dump-header', '-c', '--cookie-jar'].includes(text) && next !== undefined && !(text === '-O' && next.text?.includes('://') === true)) files.push(next);
    const eq = /^--(output|output-document|dump-header|cookie-jar)=(.*)$/.exec(text);
    if (eq?.[2] !== undefined) files.push({ text: eq[2], glob: arg.glob });
  });
  return files.filter((arg) => arg.text !== '-');
}

/** Local operands of `scp`/`rsync`/`sftp` (those that name no `host:`) are read or written. */
function copyEnds(name: string, args: readonly Arg[], ctx: CommandContext): Finding[] {
  const operands = splitOptions(args, { valued: ['e', 'i', 'P', 'p', 'F', 'o', 'l', 'S', 'J'] }).operands;
  const remote = (arg: Arg): boolean => arg.text === null || /^[^/]*:/.test(arg.text);
  if (operands.length < 2) return [];
  const destination = operands.at(-1) as Arg;
  const sources = operands.slice(0, -1);
  return [
    ...sources.filter((arg) => !remote(arg)).flatMap((arg) => ctx.path('read', arg, `\`${name}\` sends`)),
    ...(remote(destination) ? [] : ctx.path('write', destination, `\`${name}\` writes`)),
  ];
}

/** `curl`, `wget`, `ssh`, `scp`, `nc` …: network, plus the local files they send or save. */
export const reachNetwork: CommandRule = (name, args, ctx) => {
  const network: Finding = { class: 'network', reason: `\`${name}\` reaches the network (loopback included)` };
  const sent = uploads(args).flatMap((arg) => ctx.path('read', arg, `\`${name}\` sends`));
  const saved = saves(args).flatMap((arg) => ctx.path('write', arg, `\`${name}\` saves`));
  const ends = name === 'scp' || name === 'sftp' ? copyEnds(name, args, ctx) : [];
  const remoteCommand = name === 'ssh' ? [{ class: 'exec' as const, reason: '`ssh` may run a command on another machine' }] : [];
  return [network, ...sent, ...saved, ...ends, ...remoteCommand];
};

/** Database and cache clients: they reach a server over the network when given a host or a URL. */
export const DATABASE_CLIENTS = [
  'psql', 'pg_dump', 'pg_dumpall', 'pg_restore', 'pg_isready', 'mysql', 'mysqldump', 'mysqladmin', 'mariadb', 'mariadb-dump',
  'redis-cli', 'valkey-cli', 'mongo', 'mongosh', 'mongodump', 'mongorestore', 'mongoexport', 'mongoimport', 'sqlcmd', 'clickhouse-client', 'cqlsh',
] as const;

/** `psql -h 127.0.0.1`, `mysql --host=db`, `redis-cli -u redis://…`: network (loopback included); with no host, the local socket (`exec`). */
export const reachDatabase: CommandRule = (name, args) => {
  const words = args.map((arg) => arg.text);
  const hostOption = words.findIndex((word) => word === '-h' || word === '--host' || word === '-H' && name === 'mongo' || word === '-S' && name === 'sqlcmd');
  const host = hostOption >= 0 ? words[hostOption + 1] ?? null : words.map((word) => /^--host=(.*)$/.exec(word ?? '')?.[1] ?? /^-h(.+)$/.exec(word ?? '')?.[1]).find((value) => value !== undefined);
  const url = words.find((word) => word === null || /^[a-z][a-z0-9+.-]*:\/\//i.test(word) || /(^|\s)host=/.test(word));
  if (host !== undefined || url !== undefined || args.some((arg) => arg.text === null)) {
    return [{ class: 'network', reason: `\`${name}\` connects to a server${host === undefined || host === null ? '' : ` at ${host}`} (loopback included)` }];
  }
  return [{ class: 'exec', reason: `\`${name}\` talks to a local server through its socket` }];
};

/** `rsync`: network only when an end names a host (`host:path`, `rsync://`); local ends are read and written. */
export const syncFiles: CommandRule = (name, args, ctx) => {
  const operands = splitOptions(args, { valued: ['e', 'rsh', 'exclude', 'include', 'filter', 'f', 'files-from', 'link-dest', 'backup-dir', 'T', 'temp-dir', 'rsync-path'] }).operands;
  const remote = operands.some((arg) => arg.text === null || /^[^/]*:/.test(arg.text));
  const deletes = args.some((arg) => arg.text?.startsWith('--delete') === true || arg.text === '--remove-source-files');
  return [
    ...(remote ? [{ class: 'network' as const, reason: `\`${name}\` copies to or from another machine` }] : []),
    ...(deletes ? [{ class: 'destructive' as const, reason: `\`${name} --delete\` deletes files at the destination` }] : []),
    ...copyEnds(name, args, ctx),
  ];
};

/** Package runners, and the subcommands of package managers that run a package's program. */
const RUNNERS: { readonly [name: string]: readonly string[] } = { npx: [''], pnpx: [''], bunx: [''], npm: ['exec', 'x'], pnpm: ['exec', 'dlx'], yarn: ['', 'dlx', 'exec', 'run'], bun: ['x', 'run'] };

/** `npx yoke answer …`, `npm exec yoke -- budget …`: yoke's operator commands are yoke's (protected); null for anything else. */
function yokeByRunner(name: string, args: readonly Arg[], operands: readonly Arg[], ctx: CommandContext): Finding[] | null {
  const subs = RUNNERS[name];
  if (subs === undefined) return null;
  const at = operands.findIndex((arg, index) => index <= 1 && arg.text !== null && /^yoke(@.*)?$/.test(arg.text) && subs.includes(index === 0 ? '' : operands[0]?.text ?? ''));
  if (at < 0) return null;
  const rest = args.slice(args.indexOf(operands[at] as Arg) + 1).filter((arg) => arg.text !== '--');
  return operatorCommand(rest) === null ? null : yokeVia(rest, ctx);
}

/** `npm install`, `pip install`, `cargo install` …: network for downloading subcommands, `exec` otherwise; yoke run through them is yoke. */
export const runPackageManager: CommandRule = (name, args, ctx) => {
  const subcommands = DOWNLOADERS[name] ?? [];
  const operands = splitOptions(args, { valued: ['C', 'prefix', 'registry', 'cwd', 'w', 'workspace', 'r', 'requirement', 'm', 'p', 'package'] }).operands;
  const yoke = yokeByRunner(name, args, operands, ctx);
  if (yoke !== null) return yoke;
  const sub = operands[0]?.text ?? '';
  const downloads = subcommands.includes('*') || subcommands.includes(sub) || (sub === '' && subcommands.includes(''));
  if (name === 'go' && sub === 'mod') {
    const action = splitOptions(args).operands[1]?.text ?? '';
    if (!['download', 'tidy', 'vendor'].includes(action)) return [{ class: 'exec', reason: `\`go mod ${action}\` works on go.mod` }];
  }
  return downloads
    ? [{ class: 'network', reason: `\`${name}${sub === '' ? '' : ` ${sub}`}\` downloads or publishes packages` }]
    : [{ class: 'exec', reason: `\`${name}${sub === '' ? '' : ` ${sub}`}\` runs the project's tooling` }];
};
