import { describe, expect, it } from 'vitest';
import { shellWords } from '../../config/shell-words.js';

const texts = (command: string): string[] => shellWords(command).map((word) => word.text);

describe('shellWords', () => {
  it('splits on blanks and operators, and removes quotes as sh does', () => {
    expect(texts('npm test -- --run')).toEqual(['npm', 'test', '--', '--run']);
    expect(texts(`./a.sh 'x y' "p \\"q\\"" r\\ s;b.sh&&c.sh|d.sh`)).toEqual(['./a.sh', 'x y', 'p "q"', 'r s', 'b.sh', 'c.sh', 'd.sh']);
  });
  it('gives each word its offset in the command', () => {
    expect(shellWords('node  tests/run.mjs').map((word) => word.start)).toEqual([0, 6]);
  });
  it('marks words sh expands when it runs ($, backquotes, globs, ~) as not literal', () => {
    expect(shellWords('cat $F "$G" \'$H\' *.sh ~/x `x` plain').map((word) => [word.text, word.literal])).toEqual([
      ['cat', true], ['$F', false], ['$G', false], ['$H', true], ['*.sh', false], ['~/x', false], ['`x`', false], ['plain', true],
    ]);
  });
  it('marks the target of an output redirection, not an input one', () => {
    expect(shellWords('check.sh > out.log 2>>err.log < in.txt').map((word) => [word.text, word.output])).toEqual([
      ['check.sh', false], ['out.log', true], ['err.log', true], ['in.txt', false],
    ]);
  });
  it('reads the command after sh -c / bash -c as well', () => {
    expect(texts(`sh -c 'cd x && ./check.sh'`)).toEqual(['sh', '-c', 'cd x && ./check.sh', 'cd', 'x', './check.sh']);
    expect(texts(`/bin/bash -c "tests/run.sh --fast"`)).toContain('tests/run.sh');
  });
});
