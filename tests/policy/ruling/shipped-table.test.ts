// The shipped table is DESIGN §13's.
import { describe, expect, it } from 'vitest';
import { SHIPPED_TABLE } from '../../../policy/ruling/shipped-table.js';

describe('SHIPPED_TABLE', () => {
  it('passes read, edit, exec; holds network; refuses protected, secret, destructive', () => {
    expect(SHIPPED_TABLE).toEqual({ read: 'pass', edit: 'pass', exec: 'pass', network: 'hold', protected: 'refuse', secret: 'refuse', destructive: 'refuse' });
  });
});
