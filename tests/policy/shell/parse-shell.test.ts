// The parser adapter: mvdan/sh's tree becomes ours, with operators, quoting and nesting intact.
import { describe, expect, it } from 'vitest';
import { BINARY_OPERATORS, REDIRECT_OPERATORS, parseShell } from '../../../policy/shell/parse-shell.js';
import type { ShellCommand, ShellStmt } from '../../../policy/shell/shell-tree.js';

function stmts(source: string): ShellStmt[] {
  const parsed = parseShell(source);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.stmts;
}

function first(source: string): ShellCommand | null {
  return stmts(source)[0]?.command ?? null;
}

describe('parseShell', () => {
  it.each(Object.values(REDIRECT_OPERATORS).filter((op) => op !== '<<' && op !== '<<-'))('maps the token of `%s` to its operator', (op) => {
    const [stmt] = stmts(`cat ${op} f`);
    expect(stmt?.redirects[0]?.op).toBe(op);
  });

  it('maps here-documents and their bodies', () => {
    const [stmt] = stmts("cat <<'EOF' > out\nrm -rf /\nEOF\n");
    expect(stmt?.redirects.map((r) => r.op)).toEqual(['<<', '>']);
    expect(stmt?.redirects[0]?.heredoc?.parts).toEqual([{ kind: 'text', text: 'rm -rf /\n', quoted: true }]);
    expect(stmts("cat <<-X\n\tbody\n\tX\n")[0]?.redirects[0]?.op).toBe('<<-');
  });

  it.each(Object.values(BINARY_OPERATORS))('maps the token of `%s`', (op) => {
    expect(first(`a ${op} b`)).toMatchObject({ kind: 'binary', op });
  });

  it('keeps fd numbers of redirections', () => {
    expect(stmts('cmd 2> err')[0]?.redirects[0]).toMatchObject({ op: '>', fd: '2' });
  });

  it('removes quotes and backslashes, decodes $\'…\'', () => {
    const command = first(`r'm' "-r"f \\x $'\\x72m'`);
    expect(command).toMatchObject({ kind: 'call' });
    const words = command?.kind === 'call' ? command.args.map((word) => word.parts.map((part) => (part.kind === 'text' ? part.text : '?')).join('')) : [];
    expect(words).toEqual(['rm', '-rf', 'x', 'rm']);
  });

  it('splits braces into alternatives', () => {
    const command = first('rm {a,b}.txt');
    expect(command?.kind === 'call' ? command.args[1]?.parts[0]?.kind : null).toBe('brace');
  });

  it('keeps command substitutions inside words, parameters and arithmetic', () => {
    const command = first('echo "$(rm a)" ${X:-$(rm b)} $(( $(rm c) ))');
    const kinds = command?.kind === 'call' ? command.args.slice(1).map((word) => word.parts.map((part) => part.kind)) : [];
    expect(kinds).toEqual([['subst'], ['dynamic'], ['dynamic']]);
    const nested = command?.kind === 'call' ? command.args.slice(1).flatMap((word) => word.parts.flatMap((part) => ('stmts' in part ? part.stmts : []))) : [];
    expect(nested).toHaveLength(3);
  });

  it('flattens compound commands into groups', () => {
    expect(first('if a; then b; else c; fi')).toMatchObject({ kind: 'group', subshell: false });
    expect(first('(cd x; rm y)')).toMatchObject({ kind: 'group', subshell: true });
    expect(first('for f in *.txt; do rm "$f"; done')).toMatchObject({ kind: 'group', words: [{ parts: [{ kind: 'text', text: '*.txt' }] }] });
    expect(first('f() { rm x; }')).toMatchObject({ kind: 'function', name: 'f' });
    expect(first('time rm x')).toMatchObject({ kind: 'group' });
    expect(first('export A=1 B')).toMatchObject({ kind: 'decl', variant: 'export', assigns: [{ name: 'A' }, { name: 'B', value: null }] });
  });

  it('parses bash-isms the POSIX grammar lacks: arrays, [[ ]], process substitution, <<<, &>', () => {
    for (const source of ['a=(1 2 3)', '[[ -f x ]] && rm x', 'diff <(ls a) <(ls b)', 'cat <<< "hi"', 'echo a &>> log', 'function f { rm x; }']) {
      expect(parseShell(source).ok, source).toBe(true);
    }
  });

  it('reports a syntax error with the parser\'s position and words', () => {
    expect(parseShell('if then fi')).toEqual({ ok: false, error: '1:1: "if" must be followed by a statement list' });
    expect(parseShell('echo "open')).toMatchObject({ ok: false });
  });

  it('is deterministic', () => {
    const source = 'cd a && rm -rf "$X"/{b,c} > /dev/null 2>&1 | tee log; echo $(curl x)';
    expect(JSON.stringify(parseShell(source))).toBe(JSON.stringify(parseShell(source)));
  });
});
