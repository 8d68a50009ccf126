// What reading, writing or deleting one path amounts to: the finding of each path a call names.
import type { Finding } from '../classification.js';
import type { ToolScope } from '../tool-scope.js';
import { globMatches } from './glob-pattern.js';
import { isHarmlessDevice, protectedWitnesses, protectionOf } from './protected-path.js';
import { displayPath, normalizeAbsolute, projectRelative, resolvePath } from './resolve-path.js';
import { secretGlobReason, secretReason, secretTreeReason } from './secret-path.js';

/**
 * What a call does to a path. `search` reads every file under it, hidden and ignored ones too
 * (`grep -r`); `delete` and `truncate` lose content; `shred` destroys it for good.
 */
export type PathAct = 'read' | 'search' | 'write' | 'delete' | 'truncate' | 'shred';

/** A path as a call names it: its text (null when only known at run time) and whether it is a glob. */
export interface PathTarget {
  text: string | null;
  glob: boolean;
}

/** Where and by what a path is named: the cwd it is relative to (null when unknown) and the words doing it. */
export interface PathOrigin {
  cwd: string | null;
  scope: ToolScope;
  /** The act in words, with its subject: "rm deletes", "a `>` redirect writes". */
  doing: string;
}

/** Whether deleting `rel` could lose a tracked file: always when the tracked list is unknown. */
function losesTracked(rel: string | null, scope: ToolScope): boolean {
  if (scope.tracked === undefined || rel === null || rel === '.') return true;
  return scope.tracked.some((file) => file === rel || file.startsWith(`${rel}/`));
}

function unknownPath(act: PathAct, origin: PathOrigin, what: string): Finding[] {
  switch (act) {
    case 'read': case 'search': return [{ class: 'read', reason: `${origin.doing} ${what}, a path known only when it runs` }];
    case 'write': return [{ class: 'protected', reason: `${origin.doing} ${what}, a path known only when it runs: yoke cannot tell it stays inside the boundary` }];
    case 'delete': case 'truncate': case 'shred':
      return [{ class: 'destructive', reason: `${origin.doing} ${what}, a path known only when it runs: it may be tracked work` }];
  }
}

/** Whether a glob (project-relative) could match `witness`, or a path under it when it ends with `/`. */
function couldReach(pattern: string, witness: string): boolean {
  const parts = pattern.split('/');
  const target = witness.replace(/\/$/, '').split('/');
  if (!witness.endsWith('/')) return parts.length === target.length && parts.every((part, i) => globMatches(part, target[i] ?? '', true));
  return parts.length >= target.length && target.every((segment, i) => globMatches(parts[i] ?? '', segment, true) || parts[i] === '**');
}

/** The literal directory a glob starts from: every segment before the first one with a glob character. */
function literalBase(abs: string): string {
  const segments = abs.split('/');
  const first = segments.findIndex((segment) => /[*?[]/.test(segment));
  return normalizeAbsolute(segments.slice(0, first === -1 ? segments.length : first).join('/'));
}

function globPath(act: PathAct, pattern: string, origin: PathOrigin): Finding[] {
  const { scope } = origin;
  const abs = origin.cwd === null && !pattern.startsWith('/') && !pattern.startsWith('~') ? null : resolvePath(origin.cwd ?? '/', pattern, scope.home);
  const shown = abs === null ? pattern : displayPath(abs, scope.root);
  if (act === 'read' || act === 'search') {
    // a recursive read of a folder the glob matches (`grep -r x .l*`) reads what is under it
    const folder = act === 'search' ? ['.loop', '.loop/.journal'].find((dir) => couldReach(shown.replace(/^\.\//, ''), dir)) : undefined;
    const secret = secretGlobReason(shown) ?? (folder === undefined ? null : secretTreeReason(folder, false));
    return [secret === null ? { class: 'read', reason: `${origin.doing} the files matching ${shown}`, path: shown } : { class: 'secret', reason: `${origin.doing} ${shown}: ${secret}`, path: shown }];
  }
  if (act !== 'write') return [{ class: 'destructive', reason: `${origin.doing} every file matching ${shown}`, path: shown }];
  const rel = abs === null ? null : projectRelative(abs, normalizeAbsolute(scope.root));
  const witness = rel === null ? undefined : protectedWitnesses(scope).find((candidate) => couldReach(rel, candidate));
  const baseProtection = abs === null ? null : protectionOf(literalBase(abs), scope);
  if (rel === null || witness !== undefined || baseProtection !== null) {
    const why = witness !== undefined ? `it may match ${witness}` : baseProtection?.reason ?? 'yoke cannot tell where it points';
    return [{ class: 'protected', reason: `${origin.doing} the files matching ${shown}: ${why}`, path: shown }];
  }
  return [{ class: 'edit', reason: `${origin.doing} the files matching ${shown}`, path: shown }];
}

/**
 * The findings of one act on one path. Unknown and glob targets are judged for the worst they
 * could be: an unknown write is protected, an unknown or glob deletion destructive. Deleting or
 * truncating a path is destructive unless the tracked list shows it holds no tracked file (then it
 * is a write, judged as one); shredding always is.
 * @example pathFindings('write', { text: 'src/main.rs', glob: false }, origin) // [{ class: 'edit', path: 'src/main.rs', … }]
 */
export function pathFindings(act: PathAct, target: PathTarget, origin: PathOrigin): Finding[] {
  if (target.text === null) return unknownPath(act, origin, 'a path');
  if (target.glob) return globPath(act, target.text, origin);
  const { scope } = origin;
  if (origin.cwd === null && !target.text.startsWith('/') && !target.text.startsWith('~')) {
    const secret = act === 'read' ? secretReason(target.text) : null;
    if (secret !== null) return [{ class: 'secret', reason: `${origin.doing} ${target.text}: ${secret}`, path: target.text }];
    return unknownPath(act, origin, `${target.text} in a directory known only when it runs`);
  }
  const abs = resolvePath(origin.cwd ?? '/', target.text, scope.home);
  const shown = displayPath(abs, scope.root);
  if (act === 'read' || act === 'search') {
    const rel = projectRelative(abs, normalizeAbsolute(scope.root));
    const ancestor = rel === null && projectRelative(normalizeAbsolute(scope.root), abs) !== null;
    const secret = secretReason(shown) ?? (act === 'search' ? secretTreeReason(rel, ancestor) : null);
    return [secret === null ? { class: 'read', reason: `${origin.doing} ${shown}`, path: shown } : { class: 'secret', reason: `${origin.doing} ${shown}: ${secret}`, path: shown }];
  }
  if (isHarmlessDevice(abs)) return [];
  const protection = protectionOf(abs, scope);
  const written: Finding = protection === null
    ? { class: 'edit', reason: `${origin.doing} ${shown}`, path: shown }
    : { class: 'protected', reason: `${origin.doing} ${shown}: ${protection.reason}`, path: shown };
  if (act === 'write') return [written];
  const rel = projectRelative(abs, normalizeAbsolute(scope.root));
  const inScratch = rel === null && protection === null;
  const loses = act === 'shred' || rel === '.' || (!inScratch && losesTracked(rel, scope));
  if (!loses) return [written];
  const lost = rel === null ? `${shown}, outside the project` : rel === '.' ? 'the whole project' : scope.tracked === undefined ? shown : `${shown}, which holds tracked files`;
  return [{ class: 'destructive', reason: `${origin.doing} ${lost}`, path: shown }, ...(protection === null ? [] : [written])];
}
