// store/stash/mode-tag.ts: the mode a stash entry is tagged with.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readModeTag } from '../../../store/stash/mode-tag.js';

const dir = mkdtempSync(join(tmpdir(), 'yoke-mode-tag-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function tagOf(text: string | null): string {
  const path = join(dir, `conf-${Math.random().toString(16).slice(2)}`);
  if (text !== null) writeFileSync(path, text);
  return readModeTag(path);
}

describe('readModeTag', () => {
  it.each([
    ['mode brute\nagent cmd x\n', 'brute'],
    ['\uFEFF# comment\r\n  mode\tsaga   # trailing comment\r\n', 'saga'],
    ['agent cmd x\nmode goal\nbogus directive here\n', 'goal'],
    ['mode loop\nmode brute\n', 'loop'],
  ])('reads the first mode line of %j', (text, mode) => {
    expect(tagOf(text)).toBe(mode);
  });

  it.each([
    ['a missing file', null],
    ['no mode line', 'agent cmd x\n'],
    ['an unknown mode', 'mode turbo\n'],
    ['a mode line with extra words', 'mode loop brute\n'],
    ['a commented-out mode', '# mode loop\n'],
  ])('is unknown for %s', (_name, text) => {
    expect(tagOf(text)).toBe('unknown');
  });
});
