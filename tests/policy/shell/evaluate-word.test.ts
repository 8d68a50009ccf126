// Words expand as far as the script decides them: quotes, braces, assigned variables; credentials are seen.
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../../policy/classification.js';
import { expandWord } from '../../../policy/shell/evaluate-word.js';
import { parseShell } from '../../../policy/shell/parse-shell.js';
import { SCOPE } from '../support.js';

function expand(source: string, vars: Record<string, string | null> = {}): { args: { text: string | null; glob: boolean }[]; findings: Finding[] } {
  const parsed = parseShell(`x ${source}`);
  if (!parsed.ok) throw new Error(parsed.error);
  const command = parsed.stmts[0]?.command;
  if (command?.kind !== 'call') throw new Error('not a call');
  const findings: Finding[] = [];
  const env = { state: { cwd: '/p', vars: new Map(Object.entries(vars)) }, scope: SCOPE, walk: () => [{ class: 'exec' as const, reason: 'walked' }] };
  return { args: command.args.slice(1).flatMap((word) => expandWord(word, env, findings)), findings };
}

describe('expandWord', () => {
  it('joins quoted and unquoted parts; only unquoted glob characters glob', () => {
    expect(expand('"a*"b').args).toEqual([{ text: 'a*b', glob: false }]);
    expect(expand('a*').args).toEqual([{ text: 'a*', glob: true }]);
  });
  it('expands braces into several words, and a long sequence into a glob', () => {
    expect(expand('{a,b}.txt').args.map((arg) => arg.text)).toEqual(['a.txt', 'b.txt']);
    expect(expand('f{1..9}').args).toEqual([{ text: 'f*', glob: true }]);
  });
  it('knows assigned variables, HOME and PWD; others are unknown', () => {
    expect(expand('$A/x').args[0]?.text).toBe(null);
    expect(expand('$A/x', { A: 'src' }).args[0]?.text).toBe('src/x');
    expect(expand('$HOME').args[0]?.text).toBe('/home/u');
    expect(expand('"$PWD"').args[0]?.text).toBe('/p');
  });
  it('splits unquoted expansions into fields, never quoted ones', () => {
    expect(expand('$A', { A: 'rm -rf' }).args.map((arg) => arg.text)).toEqual(['rm', '-rf']);
    expect(expand('"$A"', { A: 'rm -rf' }).args.map((arg) => arg.text)).toEqual(['rm -rf']);
  });
  it('a quoted ~ is not the home directory', () => {
    expect(expand("'~/x'").args[0]?.text).toBe('./~/x');
  });
  it('a credential variable is a secret; a substitution is walked and unknown', () => {
    expect(expand('$AWS_SECRET_ACCESS_KEY').findings).toMatchObject([{ class: 'secret' }]);
    const walked = expand('$(date)');
    expect(walked.args[0]?.text).toBeNull();
    expect(walked.findings).toMatchObject([{ reason: 'walked' }]);
  });
});
