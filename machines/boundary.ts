// The diff boundary rule (spec 5.3): the longest matching prefix wins.

/** Why a changed path is outside the boundary. */
export interface Violation {
  path: string;
  /** the `no-modify` prefix that protects it, or null when no `allow` prefix covers it */
  rule: string | null;
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
