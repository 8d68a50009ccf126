// The diff boundary rule (spec 5.3): the longest matching prefix wins; and HEAD must stay where yoke left it.
import type { EffectResult, Head } from './effects.js';
import { CONTEXT_DIR, CONTEXT_FILES } from './context/context-files.js';

/** Is `path` (relative to the project root) one of `.yoke/context/`'s three files? */
export function isContextFile(path: string): boolean {
  return CONTEXT_FILES.some((name) => path === `${CONTEXT_DIR}/${name}`);
}

/** How HEAD moved away from where yoke left it. */
export interface HeadMove {
  /** the run's branch (null: the run started on a detached HEAD) and the commit HEAD had to contain */
  expected: Head;
  /** HEAD now */
  now: Head;
  /** the expected commit when it is no longer on HEAD (reset, rebased, amended away); recover it from here */
  lost: string | null;
}

/** Why a changed path (or HEAD) is outside the boundary. */
export interface Violation {
  path: string;
  /** the `no-modify` prefix that protects it, or null when no `allow` prefix covers it (or for HEAD) */
  rule: string | null;
  /** set when the violation is HEAD itself: `path` is `HEAD` */
  head?: HeadMove;
  /** set when the path is a protected file (DESIGN §16): how it changed, and the blob keeping the agent's version (null for a deletion) */
  protect?: { kind: 'modified' | 'mode' | 'deleted' | 'added'; kept: string | null };
}

/**
 * Classify a changed path (posix, relative to the project root) against `allow` / `no-modify`
 * prefixes. The longest prefix matching the path decides; when none matches, the path is allowed
 * only if no `allow` rule exists at all (nothing allowed = everything outside `no-modify` allowed).
 *
 * @example
 * classifyPath('src/main.rs', ['src/'], ['src/main.rs']) // { allowed: false, rule: 'src/main.rs' }
 * classifyPath('src/other.rs', ['src/'], ['src/main.rs']) // { allowed: true, rule: 'src/' }
 */
export function classifyPath(path: string, allow: readonly string[], noModify: readonly string[]): { allowed: boolean; rule: string | null } {
  let best: { allowed: boolean; rule: string } | null = null;
  for (const rule of allow) {
    if (path.startsWith(rule) && (best === null || rule.length > best.rule.length)) best = { allowed: true, rule };
  }
  for (const rule of noModify) {
    if (path.startsWith(rule) && (best === null || rule.length > best.rule.length)) best = { allowed: false, rule };
  }
  if (best) return best;
  return { allowed: allow.length === 0, rule: null };
}

/** Every changed path that breaks the boundary, in input order. */
export function findViolations(changed: readonly string[], allow: readonly string[], noModify: readonly string[]): Violation[] {
  const violations: Violation[] = [];
  for (const path of changed) {
    const verdict = classifyPath(path, allow, noModify);
    if (!verdict.allowed) violations.push({ path, rule: verdict.rule });
  }
  return violations;
}

/**
 * Would the boundary check catch an agent's change to `path` (posix, relative to the project root)?
 * Yes when a `no-modify` prefix is the longest match (git-ignored files too: yoke hashes those), or
 * when `allow` prefixes exist, none covers it, and git sees the file (a git-ignored file under no
 * `no-modify` prefix is never looked at). Never for `.loop/`, which the boundary does not cover.
 * The one rule `config check` asks about the files guards run; a `protect` directive joins here.
 */
export function boundaryProtects(path: string, config: { allow: readonly string[]; noModify: readonly string[] }, ignored: boolean): boolean {
  if (path === '.loop' || path.startsWith('.loop/')) return false;
  const verdict = classifyPath(path, config.allow, config.noModify);
  if (verdict.allowed) return false;
  return verdict.rule !== null || !ignored;
}

/**
 * How HEAD moved, or null when it is where yoke left it: on the run's branch, still containing the
 * expected commit. Commits the agent added on top lose nothing and are not a move; a switched
 * branch (or a detached HEAD), or the expected commit gone from HEAD (reset, rebase, amend, a
 * deleted yoke commit), is.
 */
export function headMove(expected: Head, now: EffectResult<'boundary.scan'>['head']): HeadMove | null {
  if (now === undefined) return null;
  if (now.branch === expected.branch && now.lost === null) return null;
  return { expected, now: { branch: now.branch, sha: now.sha }, lost: now.lost };
}

/**
 * The boundary verdict on one scan: changed paths outside `allow` / `no-modify`, then HEAD when it
 * moved (only when the scan was told where yoke left it).
 */
export function boundaryViolations(
  result: EffectResult<'boundary.scan'>,
  config: { allow: readonly string[]; noModify: readonly string[] },
  expected: Head | null,
): Violation[] {
  // DESIGN §9: the context files are never a boundary violation: KNOWLEDGE.md is the agents' to
  // edit, and an agent's change to PROJECT.md or DECISIONS.md is put back when its call ends (what
  // remains changed there is yoke's own decision entries).
  const violations = findViolations(result.changed.filter((path) => !isContextFile(path)), config.allow, config.noModify);
  const moved = expected === null ? null : headMove(expected, result.head);
  return moved === null ? violations : [...violations, { path: 'HEAD', rule: null, head: moved }];
}
