import { describe, expect, it } from 'vitest';
import { JsonLineSplitter } from '../../../effects/adapters/json-line-splitter.js';

describe('JsonLineSplitter', () => {
  it('returns objects as their lines complete, across chunks, and ignores everything else', () => {
    const splitter = new JsonLineSplitter();
    expect(splitter.push('{"a":1}\nnoise\n{"b"')).toEqual([{ a: 1 }]);
    expect(splitter.push(':2}\r\n[1]\n3\nnull\n{"c":')).toEqual([{ b: 2 }]);
    expect(splitter.end()).toEqual([]);
  });

  it('decodes a multi-byte character cut between chunks, and reads a last line without newline', () => {
    const bytes = Buffer.from('{"text":"é—ü"}');
    const splitter = new JsonLineSplitter();
    expect(splitter.push(bytes.subarray(0, 10))).toEqual([]);
    expect(splitter.push(bytes.subarray(10, 12))).toEqual([]);
    expect(splitter.push(bytes.subarray(12))).toEqual([]);
    expect(splitter.end()).toEqual([{ text: 'é—ü' }]);
  });
});
