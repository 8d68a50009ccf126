import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { boundaryProtects, boundaryViolations, classifyPath, findViolations, headMove } from '../../machines/boundary.js';

/**
 * Brute-force oracle for "the longest matching prefix wins": walk the path's own prefixes from the
 * longest down and stop at the first one that is a rule. None → allowed only when nothing is allowed.
 */
function longestPrefixOracle(path: string, allow: readonly string[], noModify: readonly string[]): { allowed: boolean; rule: string | null } {
  for (let length = path.length; length > 0; length -= 1) {
    const prefix = path.slice(0, length);
    if (noModify.includes(prefix)) return { allowed: false, rule: prefix };
    if (allow.includes(prefix)) return { allowed: true, rule: prefix };
  }
  return { allowed: allow.length === 0, rule: null };
}

// Small alphabets so that generated prefixes match generated paths often.
const segment = fc.constantFrom('src', 'lib', 'main.rs', 'a', 'b', 'src-old', 'x.ts');
const projectPath = fc.array(segment, { minLength: 1, maxLength: 4 }).map((parts) => parts.join('/'));
/** Folder prefixes (`src/`), file or name prefixes (`src/main.rs`, `src`), and raw string cuts (`sr`). */
const prefix = fc.oneof(
  fc.array(segment, { minLength: 1, maxLength: 3 }).map((parts) => `${parts.join('/')}/`),
  fc.array(segment, { minLength: 1, maxLength: 3 }).map((parts) => parts.join('/')),
  fc.tuple(projectPath, fc.nat()).map(([path, cut]) => path.slice(0, 1 + (cut % path.length))),
);
/** allow and no-modify never share a prefix (yoke.conf rejects that). */
const rules = fc
  .tuple(fc.array(prefix, { maxLength: 5 }), fc.array(prefix, { maxLength: 5 }))
  .map(([allow, noModify]) => ({ allow, noModify: noModify.filter((rule) => !allow.includes(rule)) }));

describe('classifyPath', () => {
  it('5.3 scope rules resolve most-specific-wins: allow src/ + no-modify src/main.rs', () => {
    const allow = ['src/'];
    const noModify = ['src/main.rs'];
    expect(classifyPath('src/main.rs', allow, noModify)).toEqual({ allowed: false, rule: 'src/main.rs' });
    expect(classifyPath('src/other.rs', allow, noModify)).toEqual({ allowed: true, rule: 'src/' });
    expect(classifyPath('README.md', allow, noModify)).toEqual({ allowed: false, rule: null });
  });

  it('5.3 the longer prefix wins in either direction: an allowed folder inside a protected one', () => {
    const allow = ['tests/fixtures/generated/'];
    const noModify = ['tests/fixtures/'];
    expect(classifyPath('tests/fixtures/a.json', [], noModify)).toEqual({ allowed: false, rule: 'tests/fixtures/' });
    expect(classifyPath('tests/fixtures/generated/b.json', allow, noModify)).toEqual({ allowed: true, rule: 'tests/fixtures/generated/' });
    expect(classifyPath('tests/unit.test.ts', allow, noModify)).toEqual({ allowed: false, rule: null });
  });

  it('with no rules at all everything is allowed', () => {
    expect(classifyPath('anything/at/all.txt', [], [])).toEqual({ allowed: true, rule: null });
  });

  it('prefixes are plain text: `src` also covers `src.ts` and `src-old/`, `src/` does not', () => {
    expect(classifyPath('src.ts', [], ['src'])).toEqual({ allowed: false, rule: 'src' });
    expect(classifyPath('src-old/a.ts', [], ['src'])).toEqual({ allowed: false, rule: 'src' });
    expect(classifyPath('src-old/a.ts', [], ['src/'])).toEqual({ allowed: true, rule: null });
  });

  it('equals the brute-force longest-matching-prefix oracle', () => {
    fc.assert(
      fc.property(projectPath, rules, (path, { allow, noModify }) => {
        expect(classifyPath(path, allow, noModify)).toEqual(longestPrefixOracle(path, allow, noModify));
      }),
      { numRuns: 2_000 },
    );
  });

  it('with no allow rules, a path is allowed exactly when no no-modify prefix covers it', () => {
    fc.assert(
      fc.property(projectPath, fc.array(prefix, { maxLength: 5 }), (path, noModify) => {
        const covered = noModify.some((rule) => path.startsWith(rule));
        expect(classifyPath(path, [], noModify).allowed).toBe(!covered);
      }),
      { numRuns: 2_000 },
    );
  });
});

describe('findViolations', () => {
  it('lists every path outside the boundary, in input order, with the rule that decided it', () => {
    const changed = ['src/main.rs', 'src/lib.rs', 'docs/x.md', 'src/main.rs.orig'];
    expect(findViolations(changed, ['src/'], ['src/main.rs'])).toEqual([
      { path: 'src/main.rs', rule: 'src/main.rs' },
      { path: 'docs/x.md', rule: null },
      { path: 'src/main.rs.orig', rule: 'src/main.rs' },
    ]);
    expect(findViolations([], ['src/'], [])).toEqual([]);
  });

  it('is exactly the changed paths classifyPath rejects', () => {
    fc.assert(
      fc.property(fc.array(projectPath, { maxLength: 8 }), rules, (changed, { allow, noModify }) => {
        const expected = changed.filter((path) => !longestPrefixOracle(path, allow, noModify).allowed);
        expect(findViolations(changed, allow, noModify).map((v) => v.path)).toEqual(expected);
      }),
      { numRuns: 500 },
    );
  });
});

describe('issue 20.8: HEAD must stay where yoke left it', () => {
  const expected = { branch: 'main', sha: 'a'.repeat(40) };
  const config = { allow: [], noModify: ['vendor/'] };
  it('HEAD on the run’s branch, still containing the expected commit, is no violation (commits added on top lose nothing)', () => {
    expect(boundaryViolations({ changed: [], head: { branch: 'main', sha: 'b'.repeat(40), lost: null } }, config, expected)).toEqual([]);
  });
  it('a switched branch, a detached HEAD or a lost commit is a HEAD violation next to the path ones', () => {
    const switched = boundaryViolations({ changed: ['vendor/x'], head: { branch: 'other', sha: expected.sha, lost: null } }, config, expected);
    expect(switched).toEqual([
      { path: 'vendor/x', rule: 'vendor/' },
      { path: 'HEAD', rule: null, head: { expected, now: { branch: 'other', sha: expected.sha }, lost: null } },
    ]);
    expect(headMove(expected, { branch: null, sha: expected.sha, lost: null })).toMatchObject({ now: { branch: null } });
    expect(headMove(expected, { branch: 'main', sha: 'c'.repeat(40), lost: expected.sha })).toMatchObject({ lost: expected.sha });
  });
  it('runs from before yoke watched HEAD (no expected head, no head in the scan) decide as before', () => {
    expect(boundaryViolations({ changed: ['vendor/x'] }, config, null)).toEqual(findViolations(['vendor/x'], [], ['vendor/']));
    expect(headMove(expected, undefined)).toBeNull();
  });
});

describe('issue 20.15: boundaryProtects, the one rule for "would the boundary catch an edit here?"', () => {
  it('a no-modify prefix protects, ignored files included; an allow prefix does not', () => {
    expect(boundaryProtects('tests/run.sh', { allow: [], noModify: ['tests/'] }, false)).toBe(true);
    expect(boundaryProtects('tests/run.sh', { allow: [], noModify: ['tests/'] }, true)).toBe(true);
    expect(boundaryProtects('tests/run.sh', { allow: ['tests/'], noModify: [] }, false)).toBe(false);
    expect(boundaryProtects('tests/run.sh', { allow: [], noModify: [] }, false)).toBe(false);
    expect(boundaryProtects('tests/fix/x.sh', { allow: ['tests/fix/'], noModify: ['tests/'] }, false)).toBe(false);
  });
  it('outside every allow prefix a file git sees is protected, an ignored one is not; .loop/ never is', () => {
    expect(boundaryProtects('scripts/check.sh', { allow: ['src/'], noModify: [] }, false)).toBe(true);
    expect(boundaryProtects('build/check.sh', { allow: ['src/'], noModify: [] }, true)).toBe(false);
    expect(boundaryProtects('.loop/check.sh', { allow: ['src/'], noModify: [] }, false)).toBe(false);
  });
});
