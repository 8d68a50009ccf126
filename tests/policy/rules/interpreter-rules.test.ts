// Interpreters: inline code is scanned; script files are exec; modules are judged by name.
import { describe, expect, it } from 'vitest';
import { interpreterName } from '../../../policy/rules/interpreter-rules.js';
import { shellClass } from '../support.js';

describe('interpreter rules', () => {
  it('knows versioned names', () => {
    expect(interpreterName('python3.12')).toBe('python3');
    expect(interpreterName('node')).toBe('node');
    expect(interpreterName('pythonista')).toBeUndefined();
  });
  it('scans code given by option, by awk program, by deno eval, and on stdin', () => {
    expect(shellClass("node --eval \"require('fs').writeFileSync('.git/x','')\"").class).toBe('protected');
    expect(shellClass("awk 'BEGIN { system(\"rm -rf keep\") }'").class).toBe('destructive');
    expect(shellClass("deno eval \"Deno.removeSync('keep')\"").class).toBe('destructive');
    expect(shellClass("node <<'EOF'\nconsole.log(process.env)\nEOF").class).toBe('secret');
    expect(shellClass('python3.11 -c "import socket"').class).toBe('network');
  });
  it('perl -i rewrites its files; without -i it reads them', () => {
    expect(shellClass("perl -pi -e 's/a/b/' .loop/plan.md").class).toBe('protected');
    expect(shellClass("perl -ne 'print' .env").class).toBe('secret');
  });
  it('python -m: pip install downloads, other modules run', () => {
    expect(shellClass('python -m pip list').class).toBe('exec');
    expect(shellClass('python -m pytest').class).toBe('exec');
  });
  it('code from stdin that yoke cannot see is exec', () => {
    expect(shellClass('cat x.py | python').class).toBe('exec');
  });
});
