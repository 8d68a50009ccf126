// The lint rules that keep machines/ and policy/ pure must actually fire: a rule that never fires proves nothing.
// (Which floors they may import is the layering rule: tests/lint/layering.test.ts.)
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import { machinePurityRules } from '../../eslint.config.js';

const eslint = new ESLint({
  overrideConfigFile: true,
  overrideConfig: [{ files: ['**/*.ts'], languageOptions: { parser: tseslint.parser }, rules: machinePurityRules }],
});

async function problems(code: string, filePath = 'machines/probe.ts'): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).map((message) => message.message);
}

describe('machines/ purity lint', () => {
  it.each([
    ["import { readFileSync } from 'node:fs';", 'no I/O'],
    ["import { execa } from 'execa';", 'no I/O'],
    ["import { spawn } from 'child_process';", 'no I/O'],
    ["import { ulid } from 'ulid';", 'no I/O'],
    ['export const t = Date.now();', 'time is a journaled input'],
    ['export const t = new Date();', 'time is a journaled input'],
    ['export const r = Math.random();', 'randomness'],
    ['export const e = process.env.HOME;', 'no environment'],
    ['setTimeout(() => undefined, 1);', 'no clock'],
  ])('refuses %s', async (code, expected) => {
    const found = await problems(code);
    expect(found.join('\n')).toContain(expected);
  });

  it.each([
    ["import { readFileSync } from 'node:fs';", 'no I/O'],
    ['export const t = Date.now();', 'time is a journaled input'],
    ['export const e = process.env.HOME;', 'no environment'],
  ])('refuses %s in policy/', async (code, expected) => {
    const found = await problems(code, 'policy/shell/probe.ts');
    expect(found.join('\n')).toContain(expected);
  });

  it('accepts pure code', async () => {
    expect(await problems("import { setup } from 'xstate';\nexport const m = setup({});\nexport const n = Math.max(1, 2);\n")).toEqual([]);
  });
});
