import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readNotes } from '../../../effects/handlers/notes-read.js';
import { makeContext } from '../support/effect-context.js';
import { makeProject, type TempProject } from '../support/temp-project.js';

let p: TempProject;
beforeEach(async () => {
  p = await makeProject({}, { git: false });
});
afterEach(async () => {
  await p.cleanup();
});
async function firstLine(content: string | null): Promise<string | null> {
  if (content !== null) await writeFile(join(p.loopDir, 'notes.md'), content);
  return (await readNotes.execute({ file: 'notes.md' }, makeContext(p.root, p.loopDir).ctx)).firstLine;
}

describe('notes.read', () => {
  it('returns the first line with trailing whitespace and CR trimmed', async () => {
    expect(await firstLine('STATUS: DONE  \r\nrest of the notes\n')).toBe('STATUS: DONE');
    expect(await firstLine('STATUS: IN_PROGRESS')).toBe('STATUS: IN_PROGRESS');
    expect(await firstLine('\uFEFFSTATUS: DONE\n')).toBe('STATUS: DONE');
  });

  it('is null for a missing file, an empty file or an empty first line', async () => {
    expect(await firstLine(null)).toBeNull();
    expect(await firstLine('')).toBeNull();
    expect(await firstLine('   \nSTATUS: DONE\n')).toBeNull();
  });

  it('refuses a path outside .loop/', async () => {
    const { ctx } = makeContext(p.root, p.loopDir);
    await expect(readNotes.execute({ file: '/etc/passwd' }, ctx)).rejects.toThrow(/inside \.loop/);
    expect(readNotes.policy).toBe('retry');
  });
});
