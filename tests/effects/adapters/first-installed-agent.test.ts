import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { firstInstalledAgent } from '../../../effects/adapters/first-installed-agent.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function binDir(...names: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'yoke-first-agent-'));
  dirs.push(dir);
  for (const name of names) {
    writeFileSync(join(dir, name), '#!/bin/sh\n');
    chmodSync(join(dir, name), 0o755);
  }
  return dir;
}

describe('firstInstalledAgent', () => {
  it('prefers claude, codex, gemini, opencode, qwen in that order, wherever each is on PATH', () => {
    const late = binDir('codex');
    const early = binDir('qwen', 'opencode');
    expect(firstInstalledAgent(`${early}:${late}`)).toEqual({ kind: 'codex', path: join(late, 'codex') });
    expect(firstInstalledAgent(early)).toEqual({ kind: 'opencode', path: join(early, 'opencode') });
  });

  it('is null when none is on PATH (a directory named like one does not count)', () => {
    const dir = binDir();
    mkdirSync(join(dir, 'claude'));
    expect(firstInstalledAgent(`${dir}::/nonexistent`)).toBeNull();
  });
});
