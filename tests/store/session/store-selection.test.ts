// Which store a workspace uses: YOKE_STORE picks PostgreSQL, the workspace is named by --workspace, YOKE_WORKSPACE or the folder.
import { describe, expect, it } from 'vitest';
import { checkWorkspaceName, selectStore, storeUrlFromEnv } from '../../../store/session/store-selection.js';
import { YokeError } from '../../../errors/yoke-error.js';

const URL = 'postgres://u:secret-pw@127.0.0.1:5432/yoke';

describe('store selection', () => {
  it('the file journal unless YOKE_STORE names a postgres:// URL', () => {
    expect(selectStore('/w/shop', null, {})).toEqual({ kind: 'file' });
    expect(selectStore('/w/shop', null, { YOKE_STORE: 'file' })).toEqual({ kind: 'file' });
    expect(selectStore('/w/shop', null, { YOKE_STORE: URL })).toEqual({ kind: 'postgres', url: URL, workspace: 'shop' });
  });

  it('names the workspace by --workspace, else YOKE_WORKSPACE, else the folder (made a valid name)', () => {
    expect(selectStore('/w/shop', 'named', { YOKE_STORE: URL, YOKE_WORKSPACE: 'env' })).toMatchObject({ workspace: 'named' });
    expect(selectStore('/w/shop', null, { YOKE_STORE: URL, YOKE_WORKSPACE: 'env' })).toMatchObject({ workspace: 'env' });
    expect(selectStore('/w/my shop!', null, { YOKE_STORE: URL })).toMatchObject({ workspace: 'my-shop-' });
  });

  it('refuses anything else in YOKE_STORE (exit 2), without printing a password', () => {
    let refused: unknown;
    try {
      storeUrlFromEnv({ YOKE_STORE: 'mysql://u:secret-pw@h/db' });
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(YokeError);
    expect((refused as YokeError).code).toBe('usage');
    expect((refused as YokeError).message).not.toContain('secret-pw');
  });

  it('refuses a workspace name that is not letters, digits, ., _ and -', () => {
    expect(checkWorkspaceName('shop.v2_x-1', '--workspace')).toBe('shop.v2_x-1');
    expect(() => checkWorkspaceName('../etc', '--workspace')).toThrow(/is not a workspace name/);
    expect(() => checkWorkspaceName('', 'YOKE_WORKSPACE')).toThrow(/YOKE_WORKSPACE/);
  });
});
