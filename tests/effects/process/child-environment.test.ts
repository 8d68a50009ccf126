import { describe, expect, it } from 'vitest';
import { childEnvironment, withheldSecrets } from '../../../effects/process/child-environment.js';

describe('childEnvironment', () => {
  it('drops the store credentials (YOKE_STORE, PGPASSWORD) and keeps everything else, without touching the original', () => {
    const env = { HOME: '/home/u', YOKE_STORE: 'postgres://yoke:s3cret-pw@db/yoke', PGPASSWORD: 's3cret-pw', YOKE_WORKSPACE: 'shop' };
    expect(childEnvironment(env)).toEqual({ HOME: '/home/u', YOKE_WORKSPACE: 'shop' });
    expect(env.YOKE_STORE).toBe('postgres://yoke:s3cret-pw@db/yoke');
  });
});

describe('withheldSecrets', () => {
  it('redacts the store URL’s password as written and decoded, and PGPASSWORD', () => {
    expect(withheldSecrets({ PGPASSWORD: 'other-pw' }, 'postgres://yoke:p%40ss-word@db:5432/yoke')).toEqual([
      { name: 'YOKE_STORE', value: 'p%40ss-word' },
      { name: 'YOKE_STORE', value: 'p@ss-word' },
      { name: 'PGPASSWORD', value: 'other-pw' },
    ]);
  });
  it('has nothing for the file journal, a URL without a password, or one shorter than 6 characters', () => {
    expect(withheldSecrets({}, null)).toEqual([]);
    expect(withheldSecrets({}, 'postgres://yoke@db/yoke')).toEqual([]);
    expect(withheldSecrets({ PGPASSWORD: 'pw' }, 'postgres://yoke:pw@db/yoke')).toEqual([]);
  });
});
