import { describe, expect, it } from 'vitest';
import { OutputTail } from '../../../effects/process/output-tail.js';

describe('OutputTail', () => {
  it('returns short output as is', () => {
    const tail = new OutputTail(10);
    tail.push('abc');
    tail.push(Buffer.from('def'));
    expect(tail.excerpt()).toBe('abcdef');
  });

  it('keeps the last characters with a … prefix once too long, even after dropping bytes', () => {
    const tail = new OutputTail(5);
    for (let i = 0; i < 100; i += 1) tail.push(String(i % 10));
    expect(tail.excerpt()).toBe('…56789');
  });

  it('never starts an excerpt with half a multi-byte character', () => {
    const tail = new OutputTail(3);
    for (let i = 0; i < 50; i += 1) tail.push('é€😀');
    const excerpt = tail.excerpt();
    expect(excerpt).toBe('…é€😀');
    expect(excerpt).not.toContain('\uFFFD');
  });
});
