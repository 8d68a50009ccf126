// The fleet commands without a shared store: exit 2, one sentence saying what to set, nothing started.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runYoke } from '../../support/workspace.js';

const scratch = mkdtempSync(join(tmpdir(), 'yoke-fleet-usage-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('queue add, worker and fleet need a shared store', () => {
  it.each([[['queue', 'add', 'git@example.invalid:team/shop.git']], [['worker']], [['fleet', '--json']]])('yoke %j without YOKE_STORE exits 2 naming YOKE_STORE', async (args) => {
    const result = await runYoke({ path: scratch }, args);
    expect(result.exitCode, result.stderr).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/needs a shared store: set YOKE_STORE=postgres:\/\/…/);
  }, 60_000);
});
