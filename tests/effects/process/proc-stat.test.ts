import { spawn } from 'node:child_process';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { procStatFields } from '../../../effects/process/proc-stat.js';

describe('procStatFields', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  it('reads state, pgrp and start time of this process', () => {
    const fields = procStatFields(process.pid);
    expect(fields?.[0]).toMatch(/^[RSD]$/);
    expect(Number(fields?.[2])).toBeGreaterThan(0);
    expect(fields?.[19]).toMatch(/^\d+$/);
  });

  it('parses after the last ")" when the command name holds spaces and parentheses', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'yoke-comm-'));
    const binary = join(dir, 'a) b (c) d');
    await copyFile('/bin/sleep', binary);
    const child = spawn(binary, ['30'], { stdio: 'ignore' });
    cleanups.push(async () => {
      child.kill('SIGKILL');
      await rm(dir, { recursive: true, force: true });
    });
    await new Promise((resolve) => child.once('spawn', resolve));
    const fields = procStatFields(child.pid ?? 0);
    expect(fields?.[0]).toMatch(/^[RSD]$/);
    expect(fields?.[2]).toBe(procStatFields(process.pid)?.[2]); // same process group as us
    expect(fields?.[19]).toMatch(/^\d+$/);
  });

  it('is null for a pid that does not exist', () => {
    expect(procStatFields(2 ** 22 + 1)).toBeNull();
  });
});
