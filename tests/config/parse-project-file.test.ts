import { describe, expect, it } from 'vitest';
import { parseProjectFile } from '../../config/parse-project-file.js';

describe('parseProjectFile', () => {
  it.each([
    ['dist/app.js', 'dist/app.js'],
    ['./dist//app.js', 'dist/app.js'],
    ['a/./b.zip', 'a/b.zip'],
    ['.loop/flows/x.yaml', '.loop/flows/x.yaml'],
  ])('%s is %s', (text, normal) => {
    expect(parseProjectFile(text)).toEqual({ ok: true, value: normal });
  });

  it.each([
    ['/etc/passwd', 'absolute'],
    ['C:/x.exe', 'absolute'],
    ['~/x', '`~`'],
    ['../x', '`..`'],
    ['a/../../x', '`..`'],
    ['dist/*.js', 'glob'],
    ['dist/app?.js', 'glob'],
    ['dist\\app.js', '`\\`'],
    ['dist/', 'folder'],
    ['.', 'folder'],
    ['./', 'folder'],
    ['dist/.', 'folder'],
  ])('%s is refused (%s)', (text, says) => {
    const result = parseProjectFile(text);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toContain(says);
  });
});
