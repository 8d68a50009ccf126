// Which paths hold secrets: env files, keys, credential stores (DESIGN §13 `secret`).
import { globMatches } from './glob-pattern.js';

/** Folders whose every file is a secret. */
const SECRET_DIRS = ['.ssh', '.gnupg', '.aws', '.azure', '.docker', '.kube'];

/** Nested folders whose every file is a secret. */
const SECRET_SUBDIRS = ['.config/gcloud/', '.config/gh/'];

/** File names that are secrets wherever they are. */
const SECRET_NAMES = [
  '.env', '.envrc', '.netrc', '_netrc', '.npmrc', '.yarnrc.yml', '.pypirc', '.git-credentials', '.pgpass',
  '.credentials.json', 'credentials.json', 'oauth_creds.json', 'auth.json', 'id_rsa', 'id_dsa', 'id_ecdsa', 'id_ed25519',
  'shadow', 'gshadow', 'master.key', 'secrets.yml', 'secrets.yaml',
];

/** Name patterns that are secrets wherever they are (`*.pem`, `.env.local`, …). */
const SECRET_NAME_GLOBS = ['.env.*', '*.pem', '*.key', '*.p12', '*.pfx', '*.jks', '*.keystore', 'id_rsa*', 'id_ed25519*', 'id_ecdsa*', 'id_dsa*'];

/** Names that look like secrets but are templates or public halves, committed on purpose. */
const NOT_SECRET_NAMES = ['.env.example', '.env.sample', '.env.template', '.env.dist', '.env.defaults'];

/** A few names that stand for every secret, for asking whether a glob could match one. */
export const SECRET_WITNESSES = ['.env', '.env.local', 'id_rsa', 'id_ed25519', 'server.pem', 'server.key', '.netrc', '.npmrc', 'credentials.json', 'auth.json'];

function isPublicKey(name: string): boolean {
  return name.endsWith('.pub');
}

/** Why reading `path` (normalized, absolute or relative) reads a secret ("it holds …"), or null when it does not. */
export function secretReason(path: string): string | null {
  const segments = path.split('/').filter((segment) => segment !== '');
  const name = segments.at(-1) ?? '';
  if (path.startsWith('/proc/') && (name === 'environ')) return "it is a process's environment";
  if (`/${path}`.endsWith(`/${GATE_TOKEN_FILE}`)) return TOKEN_REASON;
  const dir = segments.slice(0, -1).find((segment) => SECRET_DIRS.includes(segment));
  if (dir !== undefined && !isPublicKey(name)) return `it is in ${dir}/, a credential store`;
  if (SECRET_DIRS.includes(name) && segments.length > 0) return 'it is a credential store';
  const subdir = SECRET_SUBDIRS.find((dir) => `/${path}/`.includes(`/${dir}`));
  if (subdir !== undefined) return `it is in ${subdir}, a credential store`;
  if (NOT_SECRET_NAMES.includes(name) || isPublicKey(name)) return null;
  if (SECRET_NAMES.includes(name) || SECRET_NAME_GLOBS.some((glob) => globMatches(glob, name, false))) {
    return 'it holds secrets (keys, tokens or credentials)';
  }
  return null;
}

/** The live run's operator token, project-relative: reading it would let an agent answer its own held calls. */
export const GATE_TOKEN_FILE = '.loop/.journal/gate.json';

const TOKEN_REASON = "it holds the running yoke's operator token (an agent must not answer its own held calls)";

/**
 * Why reading every file under the folder `rel` (project-relative; null: outside the project) reads a
 * secret, hidden and ignored files included (`grep -r`): yoke's operator token under `.loop/`, and
 * the project's `.env` files at its root. `ancestor`: the folder holds the project.
 */
export function secretTreeReason(rel: string | null, ancestor: boolean): string | null {
  const holdsToken = rel !== null && GATE_TOKEN_FILE.startsWith(`${rel}/`);
  if (ancestor || rel === '.') return `it reads every file under it, the project's .env files and ${GATE_TOKEN_FILE} (${TOKEN_REASON}) among them`;
  return holdsToken ? `it reads every file under it, ${GATE_TOKEN_FILE} among them: ${TOKEN_REASON}` : null;
}

/** Why a shell glob (its last segment a pattern) could name a secret ("it may match …"), or null when it cannot. */
export function secretGlobReason(pattern: string): string | null {
  const token = GATE_TOKEN_FILE.split('/');
  const parts = pattern.replace(/^\.\//, '').split('/');
  if (parts.length === token.length && parts.every((part, i) => globMatches(part, token[i] ?? '', false))) return `it may match ${GATE_TOKEN_FILE}: ${TOKEN_REASON}`;
  const segments = pattern.split('/');
  const namePattern = segments.at(-1) ?? '';
  const dirs = segments.slice(0, -1);
  if (dirs.some((segment) => SECRET_DIRS.some((dir) => globMatches(segment, dir, true)))) return 'it may match files in a credential store';
  if (!/[A-Za-z0-9_.-]/.test(namePattern.replace(/\[[^\]]*\]/g, ''))) return null;
  const witness = SECRET_WITNESSES.find((name) => globMatches(namePattern, name, true));
  return witness === undefined ? null : `it may match secret files like ${witness}`;
}
