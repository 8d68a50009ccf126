// The severity order decides the class of a call that does several things.
import { describe, expect, it } from 'vitest';
import { TOOL_CLASSES } from '../../config/types.js';
import { bySeverity, mostSevere } from '../../policy/tool-class-severity.js';

describe('tool class severity', () => {
  it('orders destructive > secret > protected > network > exec > edit > read', () => {
    expect([...TOOL_CLASSES].sort(bySeverity)).toEqual(['destructive', 'secret', 'protected', 'network', 'exec', 'edit', 'read']);
  });
  it('picks the most severe, and read for nothing', () => {
    expect(mostSevere(['edit', 'network', 'exec'])).toBe('network');
    expect(mostSevere(['protected', 'secret'])).toBe('secret');
    expect(mostSevere([])).toBe('read');
  });
});
