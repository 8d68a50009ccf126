// The store URL as shown: never its user, password or query parameters.
import { describe, expect, it } from 'vitest';
import { isPostgresUrl, redactStoreUrl } from '../../../../store/journal/postgres/store-url.js';

describe('store URLs', () => {
  it('recognizes postgres:// and postgresql:// only', () => {
    expect(isPostgresUrl('postgres://h/db')).toBe(true);
    expect(isPostgresUrl(' PostgreSQL://h/db')).toBe(true);
    expect(isPostgresUrl('mysql://h/db')).toBe(false);
    expect(isPostgresUrl('/var/lib/journal')).toBe(false);
  });

  it('drops the user, the password and every query parameter', () => {
    const shown = redactStoreUrl('postgres://alice:s3cr%40t@db.example:6543/yoke?sslmode=require&password=other-secret');
    expect(shown).toBe('postgres://db.example:6543/yoke');
    expect(redactStoreUrl('postgres://bob@localhost/yoke')).toBe('postgres://localhost/yoke');
    expect(redactStoreUrl('postgres://[not a url')).toBe('postgres://(unreadable URL)');
  });
});
