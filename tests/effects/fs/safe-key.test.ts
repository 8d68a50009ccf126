import { describe, expect, it } from 'vitest';
import { safeKey } from '../../../effects/fs/safe-key.js';

describe('safeKey', () => {
  it('turns an effect key into one file-name-safe word', () => {
    expect(safeKey('01JABC/12/0')).toBe('01JABC-12-0');
    expect(safeKey('a b:c*d.e_f-g')).toBe('a-b-c-d.e_f-g');
  });
});
