import { describe, expect, it } from 'vitest';
import { lastJsonDocument } from '../../../effects/adapters/json-document.js';

describe('lastJsonDocument', () => {
  it('finds a pretty-printed object after other output, or the whole text', () => {
    expect(lastJsonDocument('Error: x\n    at y\n{\n  "error": {\n    "code": 401\n  }\n}\n')).toEqual({ error: { code: 401 } });
    expect(lastJsonDocument('{\n"a": 1\n}')).toEqual({ a: 1 });
    expect(lastJsonDocument('{ not json\n')).toBeNull();
  });
});
