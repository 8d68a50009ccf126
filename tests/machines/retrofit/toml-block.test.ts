// The TOML merge check: yoke's tables must mean the user's values plus yoke's, nothing else.
import { describe, expect, it } from 'vitest';
import { codexGateTable } from '../../../machines/retrofit/gate-wiring.js';
import { appendBlock, renderBlock } from '../../../machines/retrofit/marked-block.js';
import { renderToml, tomlMergeProblem } from '../../../machines/retrofit/toml-block.js';

const added = codexGateTable();
const withBlock = (user: string): string => appendBlock(user, renderBlock('hash', renderToml(added)));

describe('tomlMergeProblem', () => {
  it('accepts yoke\'s tables after the user\'s, including the user\'s own hooks', () => {
    const user = 'model = "gpt-5.5"\n\n[[hooks.PreToolUse]]\nmatcher = "Bash"\n[[hooks.PreToolUse.hooks]]\ntype = "command"\ncommand = "audit"\n';
    expect(tomlMergeProblem(user, withBlock(user), added)).toBeNull();
  });

  it('refuses an inline hooks array, which a table cannot extend', () => {
    expect(tomlMergeProblem('hooks.PreToolUse = []\n', withBlock('hooks.PreToolUse = []\n'), added)?.reason).toMatch(/invalid TOML/);
  });

  it('refuses text that is not TOML, with its line', () => {
    expect(tomlMergeProblem('a = 1\nb = [\n', withBlock('a = 1\nb = [\n'), added)).toMatchObject({ line: 3 });
  });
});
