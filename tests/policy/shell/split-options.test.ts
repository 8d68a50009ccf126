// Options and operands are told apart the way getopt does.
import { describe, expect, it } from 'vitest';
import { literal, UNKNOWN_ARG } from '../../../policy/shell/command-context.js';
import { hasFlag, splitOptions } from '../../../policy/shell/split-options.js';

const words = (...texts: string[]) => texts.map(literal);

describe('splitOptions', () => {
  it('reads clusters, long options and `--`', () => {
    const split = splitOptions(words('-rf', '--force', '--', '-x', 'y'));
    expect([...split.flags]).toEqual(['r', 'f', 'force']);
    expect(split.operands.map((arg) => arg.text)).toEqual(['-x', 'y']);
    expect(hasFlag(split, 'R', 'r')).toBe(true);
  });
  it('takes values of valued options, attached or not', () => {
    const split = splitOptions(words('-ofile', '-t', 'dir', '--size=0', '--output', 'x', 'a'), { valued: ['o', 't', 'output'] });
    expect(split.values.get('o')?.[0]?.text).toBe('file');
    expect(split.values.get('t')?.[0]?.text).toBe('dir');
    expect(split.values.get('size')?.[0]?.text).toBe('0');
    expect(split.values.get('output')?.[0]?.text).toBe('x');
    expect(split.operands.map((arg) => arg.text)).toEqual(['a']);
  });
  it('stops at the first operand for wrappers', () => {
    const split = splitOptions(words('-u', 'root', 'rm', '-rf', 'x'), { valued: ['u'], stopAtOperand: true });
    expect(split.operands.map((arg) => arg.text)).toEqual(['rm', '-rf', 'x']);
  });
  it('counts an unknown word as an operand', () => {
    expect(splitOptions([UNKNOWN_ARG, literal('-f')]).operands).toHaveLength(1);
  });
});
