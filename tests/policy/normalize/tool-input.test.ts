// Tool inputs come as objects or JSON strings; their fields are read without trusting their shape.
import { describe, expect, it } from 'vitest';
import { argvCommand, inputObject, stringField, stringList } from '../../../policy/normalize/tool-input.js';

describe('tool input', () => {
  it('parses JSON strings and ignores everything that is no object', () => {
    expect(inputObject('{"cmd":"ls"}')).toEqual({ cmd: 'ls' });
    expect(inputObject('not json')).toEqual({});
    expect(inputObject([1])).toEqual({});
    expect(inputObject(null)).toEqual({});
  });
  it('reads the first non-empty string field, and string lists', () => {
    expect(stringField({ a: '', b: 3, c: 'x' }, 'a', 'b', 'c')).toBe('x');
    expect(stringField({}, 'a')).toBeNull();
    expect(stringList({ a: ['x', 1, 'y'] }, 'a')).toEqual(['x', 'y']);
    expect(stringList({ a: 'x' }, 'a')).toEqual(['x']);
  });
  it('quotes argv words that need it', () => {
    expect(argvCommand(['bash', '-lc', "rm -rf 'x'"])).toBe("bash -lc 'rm -rf '\\''x'\\'''");
  });
});
