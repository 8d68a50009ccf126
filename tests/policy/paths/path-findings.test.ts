// Acts on paths: unknown and glob targets are judged for the worst they could be; deletions are
// destructive unless the tracked list shows nothing tracked is lost.
import { describe, expect, it } from 'vitest';
import { pathFindings } from '../../../policy/paths/path-findings.js';
import { SCOPE } from '../support.js';

const origin = { cwd: '/p', scope: SCOPE, doing: 'it touches' };
const known = (text: string) => ({ text, glob: false });

describe('pathFindings', () => {
  it('judges known paths', () => {
    expect(pathFindings('write', known('src/a'), origin)).toMatchObject([{ class: 'edit', path: 'src/a' }]);
    expect(pathFindings('read', known('.env'), origin)).toMatchObject([{ class: 'secret', path: '.env' }]);
    expect(pathFindings('delete', known('src/a'), origin)).toMatchObject([{ class: 'destructive', path: 'src/a' }]);
    expect(pathFindings('write', known('/dev/null'), origin)).toEqual([]);
  });
  it('uses the tracked list for deletions, never for shredding', () => {
    const scope = { ...SCOPE, tracked: ['src/a', 'lib/b/c'] };
    expect(pathFindings('delete', known('tmp/x'), { ...origin, scope })).toMatchObject([{ class: 'edit' }]);
    expect(pathFindings('delete', known('lib'), { ...origin, scope })).toMatchObject([{ class: 'destructive' }]);
    expect(pathFindings('shred', known('tmp/x'), { ...origin, scope })).toMatchObject([{ class: 'destructive' }]);
    expect(pathFindings('delete', known('.'), { ...origin, scope })[0]).toMatchObject({ class: 'destructive', reason: 'it touches the whole project' });
  });
  it('deleting a protected path is destructive and protected', () => {
    expect(pathFindings('delete', known('.loop/plan.md'), origin).map((finding) => finding.class)).toEqual(['destructive', 'protected']);
  });
  it('judges unknown paths for the worst', () => {
    const unknown = { text: null, glob: false };
    expect(pathFindings('read', unknown, origin)).toMatchObject([{ class: 'read' }]);
    expect(pathFindings('write', unknown, origin)).toMatchObject([{ class: 'protected' }]);
    expect(pathFindings('delete', unknown, origin)).toMatchObject([{ class: 'destructive' }]);
  });
  it('judges globs by what they could match', () => {
    const glob = (text: string) => ({ text, glob: true });
    expect(pathFindings('delete', glob('*.o'), { ...origin, scope: { ...SCOPE, tracked: [] } })).toMatchObject([{ class: 'destructive' }]);
    expect(pathFindings('write', glob('src/*.ts'), origin)).toMatchObject([{ class: 'edit' }]);
    expect(pathFindings('write', glob('.claude/*.json'), origin)).toMatchObject([{ class: 'protected' }]);
    expect(pathFindings('write', glob('tests/*/a.json'), origin)).toMatchObject([{ class: 'protected' }]);
    expect(pathFindings('read', glob('.env*'), origin)).toMatchObject([{ class: 'secret' }]);
  });
  it('in a directory known only at run time, names still count', () => {
    const lost = { ...origin, cwd: null };
    expect(pathFindings('read', known('.env'), lost)).toMatchObject([{ class: 'secret' }]);
    expect(pathFindings('write', known('a.txt'), lost)).toMatchObject([{ class: 'protected' }]);
    expect(pathFindings('read', known('a.txt'), lost)).toMatchObject([{ class: 'read' }]);
  });
});
