// Codex patches name their files in headers: add, update, delete, move.
import { describe, expect, it } from 'vitest';
import { patchActs } from '../../../policy/normalize/parse-apply-patch.js';

describe('patchActs', () => {
  it('reads every header, CRLF included', () => {
    const patch = '*** Begin Patch\r\n*** Add File: a.md\r\n+x\r\n*** Update File: src/b.ts\r\n*** Move to: src/c.ts\r\n@@\r\n-a\r\n+b\r\n*** Delete File: old.txt\r\n*** End Patch\r\n';
    expect(patchActs(patch)).toEqual([
      { kind: 'write', path: 'a.md' }, { kind: 'write', path: 'src/b.ts' }, { kind: 'write', path: 'src/c.ts' }, { kind: 'delete', path: 'old.txt' },
    ]);
  });
  it('a patch with no headers is unknown', () => {
    expect(patchActs('--- a/x\n+++ b/x\n')).toMatchObject([{ kind: 'unknown' }]);
  });
  it('a header inside a hunk line is not a header', () => {
    expect(patchActs('*** Begin Patch\n*** Add File: a\n+*** Delete File: b\n*** End Patch')).toEqual([{ kind: 'write', path: 'a' }]);
  });
});
