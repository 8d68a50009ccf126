// Which store a workspace uses: YOKE_STORE picks PostgreSQL, the workspace is named by --workspace, YOKE_WORKSPACE or the folder.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkWorkspaceName, selectStore, storeUrlFromEnv, storeUrlVariables } from '../../../store/session/store-selection.js';
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

  it('names the variables of the store URL\'s password only, to withhold from the processes yoke starts (a ${USER} elsewhere is no secret)', () => {
    const root = mkdtempSync(join(tmpdir(), 'yoke-store-vars-'));
    try {
      mkdirSync(join(root, '.loop'));
      writeFileSync(join(root, '.loop', 'yoke.conf'), 'mode loop\nstore postgres://${USER}:${YOKE_DB_PASSWORD}@${DB_HOST}:5432/yoke\n');
      expect(storeUrlVariables(root)).toEqual(['YOKE_DB_PASSWORD']);
      writeFileSync(join(root, '.loop', 'yoke.conf'), 'mode loop\nstore postgres://yoke@db/yoke\n');
      expect(storeUrlVariables(root)).toEqual([]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
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

  describe('the store directive in yoke.conf', () => {
    const made: string[] = [];
    afterAll(() => {
      for (const dir of made) rmSync(dir, { recursive: true, force: true });
    });
    function project(conf: string): string {
      const root = mkdtempSync(join(tmpdir(), 'yoke-store-directive-'));
      made.push(root);
      mkdirSync(join(root, '.loop'));
      writeFileSync(join(root, '.loop', 'yoke.conf'), conf);
      return root;
    }

    it('names the store when YOKE_STORE is unset; YOKE_STORE (even `file`) wins over it', () => {
      const root = project('mode loop\nstore postgres://yoke@127.0.0.1:5432/yoke # the team store\n');
      expect(selectStore(root, 'shop', {})).toEqual({ kind: 'postgres', url: 'postgres://yoke@127.0.0.1:5432/yoke', workspace: 'shop' });
      expect(selectStore(root, 'shop', { YOKE_STORE: 'file' })).toEqual({ kind: 'file' });
      expect(selectStore(root, 'shop', { YOKE_STORE: URL })).toMatchObject({ url: URL });
      expect(selectStore(project('store file\n'), null, {})).toEqual({ kind: 'file' });
    });

    it('replaces ${NAME} references from the environment; an unset one is refused naming file:line, without the other parts', () => {
      const root = project('mode loop\n\nstore postgres://yoke:${YOKE_DB_PASSWORD}@127.0.0.1/yoke\n');
      expect(selectStore(root, 'shop', { YOKE_DB_PASSWORD: 'p@ss/word' })).toMatchObject({ url: 'postgres://yoke:p%40ss%2Fword@127.0.0.1/yoke' });
      let refused: unknown;
      try {
        selectStore(root, 'shop', {});
      } catch (error) {
        refused = error;
      }
      expect((refused as YokeError).code).toBe('usage');
      expect((refused as YokeError).message).toContain(`${join(root, '.loop', 'yoke.conf')}:3: the store URL refers to \${YOKE_DB_PASSWORD}, but YOKE_DB_PASSWORD is not set`);
    });

    it('refuses a store line that is not file or postgres://, never printing what looks like a password', () => {
      const root = project('store mysql://u:secret-pw@h/db\n');
      expect(() => selectStore(root, null, {})).toThrow(/yoke\.conf:1: `store` must be `file` or a postgres:\/\/… URL/);
      expect(() => selectStore(root, null, {})).not.toThrow(/secret-pw/);
    });
  });
});
