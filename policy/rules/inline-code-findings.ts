// What program text handed to an interpreter (`python -c`, `node -e`, a here-document) names: a
// string scan, not a parse. Paths it names that are protected or secret, URLs and network modules,
// calls that delete files or dump the environment; string literals handed to a shell-running call
// (`os.system('rm -rf x')`) are classified as shell.
import type { Finding } from '../classification.js';
import { protectionOf } from '../paths/protected-path.js';
import { displayPath, resolvePath } from '../paths/resolve-path.js';
import { secretReason } from '../paths/secret-path.js';
import { isCredentialVariable } from '../secret-variable.js';
import type { CommandContext } from '../shell/command-context.js';

const TOKEN = /[A-Za-z0-9_./~@+:%$-]+/g;
const LITERAL = /'((?:[^'\\\n]|\\.)*)'|"((?:[^"\\\n]|\\.)*)"|`([^`]*)`/g;

/** Names that reach the network. */
const NETWORK_NAMES = new Set([
  'socket', 'urllib', 'urllib.request', 'urllib2', 'requests', 'httpx', 'aiohttp', 'http.client', 'fetch', 'XMLHttpRequest',
  'https', 'http', 'net', 'dgram', 'axios', 'LWP', 'LWP::Simple', 'LWP::UserAgent', 'IO::Socket', 'IO::Socket::INET',
  'Net::HTTP', 'open-uri', 'curl_init', 'fsockopen', 'smtplib', 'ftplib', 'paramiko',
]);

/** Calls that delete files. */
const DELETING_NAMES = new Set([
  'shutil.rmtree', 'rmtree', 'os.remove', 'os.unlink', 'os.rmdir', 'os.removedirs', 'unlink', 'unlinkSync', 'fs.unlinkSync',
  'fs.unlink', 'fs.rmSync', 'fs.rm', 'fs.rmdirSync', 'fs.rmdir', 'rimraf', 'rm_rf', 'rm_r', 'FileUtils.rm_rf', 'FileUtils.rm',
  'File.delete', 'Dir.rmdir', 'remove_tree', 'rmdir', 'truncate', 'os.truncate', 'fs.truncateSync', 'fs.truncate',
  'rmSync', 'rmdirSync', 'truncateSync', 'rmtree', 'unlink_p', 'Deno.remove', 'Deno.removeSync', 'removeSync',
]);

/** Whole-environment tokens. */
const ENVIRONMENT_NAMES = new Set(['process.env', 'os.environ', '%ENV', 'ENV', '$_ENV', '$_SERVER', 'environ', 'os.environ.copy', 'os.environ.items']);

/** Calls that hand a string to a shell. */
const SHELL_RUNNING = ['system', 'popen', 'subprocess', 'spawn', 'spawnSync', 'exec', 'execSync', 'check_output', 'check_call', 'shell_exec', 'passthru', 'proc_open', 'qx', 'Open3'];

function pathLike(token: string): boolean {
  return token.includes('/') || token.startsWith('.') || token.startsWith('~');
}

/** Whether an outside-the-project path is one a scan should flag: the home directory's dotfiles and /etc. */
function sensitiveOutside(abs: string, ctx: CommandContext): boolean {
  const home = ctx.scope.home;
  return abs.startsWith('~') || abs.startsWith('/etc/') || (home !== undefined && abs.startsWith(`${home}/`));
}

function tokenFindings(token: string, lang: string, ctx: CommandContext): Finding[] {
  const clean = token.replace(/^[:@+%-]+|[:.,]+$/g, '');
  if (clean.includes('://')) return [{ class: 'network', reason: `the ${lang} code names the URL ${clean}` }];
  if (NETWORK_NAMES.has(clean)) return [{ class: 'network', reason: `the ${lang} code uses ${clean}, which reaches the network` }];
  const bare = clean.replace(/^\.+/, '');
  if (DELETING_NAMES.has(bare) || [...DELETING_NAMES].some((name) => bare.endsWith(`.${name}`))) return [{ class: 'destructive', reason: `the ${lang} code calls ${clean}, which deletes or truncates files` }];
  if (ENVIRONMENT_NAMES.has(clean)) return [{ class: 'secret', reason: `the ${lang} code reads the whole environment (${clean})` }];
  const variable = /^(?:process\.env\.|os\.environ\.|\$ENV\{?|ENV\.)([A-Za-z_][A-Za-z0-9_]*)/.exec(clean)?.[1];
  if (variable !== undefined && isCredentialVariable(variable)) return [{ class: 'secret', reason: `the ${lang} code reads $${variable}, a credential` }];
  if (/^[A-Z][A-Z0-9_]*$/.test(clean) && isCredentialVariable(clean)) return [{ class: 'secret', reason: `the ${lang} code names ${clean}, a credential variable` }];
  if (!pathLike(clean) || clean === '.' || clean === '..') {
    const secret = secretReason(clean);
    return secret === null ? [] : [{ class: 'secret', reason: `the ${lang} code names ${clean}: ${secret}`, path: clean }];
  }
  const cwd = ctx.cwd;
  if (cwd === null && !clean.startsWith('/') && !clean.startsWith('~')) {
    const secret = secretReason(clean);
    return secret === null ? [] : [{ class: 'secret', reason: `the ${lang} code names ${clean}: ${secret}`, path: clean }];
  }
  const abs = resolvePath(cwd ?? '/', clean, ctx.scope.home);
  const shown = displayPath(abs, ctx.scope.root);
  const secret = secretReason(shown);
  if (secret !== null) return [{ class: 'secret', reason: `the ${lang} code names ${shown}: ${secret}`, path: shown }];
  const protection = protectionOf(abs, ctx.scope);
  if (protection === null || protection.kind === 'outside' && !sensitiveOutside(abs, ctx)) return [];
  if (protection.kind === 'boundary' && !clean.includes('/')) return [];
  return [{ class: 'protected', reason: `the ${lang} code names ${shown} and may write it: ${protection.reason}`, path: shown }];
}

/** The shell commands inside string literals, when the code calls something that runs a shell. */
function shellLiteralFindings(code: string, lang: string, ctx: CommandContext): Finding[] {
  const tokens = code.match(TOKEN) ?? [];
  if (!tokens.some((token) => SHELL_RUNNING.some((name) => token === name || token.endsWith(`.${name}`))) && !code.includes('`')) return [];
  return [...code.matchAll(LITERAL)].flatMap((match) => {
    const text = match[1] ?? match[2] ?? match[3] ?? '';
    return text.includes(' ') ? ctx.script(text, `the ${lang} code's shell command`).filter((finding) => finding.class !== 'exec') : [];
  });
}

/**
 * The findings of program text run by an interpreter: at least `exec`, plus what the text names.
 * @example inlineCodeFindings("open('.claude/settings.json','w')", 'python', ctx) // exec + protected
 */
export function inlineCodeFindings(code: string, lang: string, ctx: CommandContext): Finding[] {
  const named = (code.match(TOKEN) ?? []).flatMap((token) => tokenFindings(token, lang, ctx));
  return [{ class: 'exec', reason: `it runs ${lang} code` }, ...named, ...shellLiteralFindings(code, lang, ctx)];
}
