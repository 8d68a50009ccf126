// Which notes.md first lines end a loop: the real `notes.read` handler (and `file.inspect`, which
// reads saga-notes.md) feeding the machine's rule, for the exact list docs/getting-started.md and
// docs/agents.md give (issue 20, item 13).
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inspectFile } from '../../effects/handlers/file-inspect.js';
import { readNotes } from '../../effects/handlers/notes-read.js';
import { notesSayDone } from '../../machines/work/work-context.js';
import { makeContext } from '../effects/support/effect-context.js';
import { makeProject, type TempProject } from '../effects/support/temp-project.js';

/** notes.md contents that say DONE: the documented leniency, and nothing more. */
const DONE = [
  'STATUS: DONE\n',
  'STATUS: DONE',
  'STATUS: DONE\r\nnotes\r\n',
  'STATUS:DONE\n',
  'STATUS:   DONE\n',
  'STATUS:\tDONE\n',
  '   STATUS: DONE\n',
  '\tSTATUS: DONE\n',
  'STATUS: DONE   \t\n',
  'STATUS: DONE\r\n',
  ' \t STATUS: \t DONE \t\r\n',
  '\uFEFFSTATUS: DONE\n',
  '\uFEFF  STATUS: DONE  \nmore notes\n',
];

/** notes.md contents that do not say DONE, however close they look. */
const NOT_DONE = [
  'STATUS: IN_PROGRESS\n',
  'status: done\n',
  'STATUS: Done\n',
  'Status: DONE\n',
  'STATUS : DONE\n',
  'STATUS DONE\n',
  'STATUS: DONE.\n',
  'STATUS: DONE!\n',
  'STATUS: DONE - all items finished\n',
  'STATUS: DONE (mostly)\n',
  'STATUS: NOT DONE\n',
  'STATUS: IN_PROGRESS DONE\n',
  '**STATUS: DONE**\n',
  '# STATUS: DONE\n',
  '- STATUS: DONE\n',
  '`STATUS: DONE`\n',
  'DONE\n',
  '\nSTATUS: DONE\n',
  '   \nSTATUS: DONE\n',
  'notes first\nSTATUS: DONE\n',
  '',
  // whitespace beyond spaces, tabs and CR is not trimmed: the docs promise those only
  'STATUS:\u00a0DONE\n',
  'STATUS: DONE\u00a0\n',
  '\u00a0STATUS: DONE\n',
  'STATUS:\u3000DONE\n',
  'STATUS: DONE\u3000\n',
  'STATUS: DONE\u2028\n',
  'STATUS:\u2028DONE\n',
  'STATUS:\u000bDONE\n',
  'STATUS: DONE\u000b\n',
  'STATUS: DONE\f\n',
  '\u000bSTATUS: DONE\n',
  '\u2003STATUS: DONE\n',
  '\uFEFF\uFEFFSTATUS: DONE\n',
];

let p: TempProject;
beforeAll(async () => {
  p = await makeProject({}, { git: false });
});
afterAll(async () => {
  await p.cleanup();
});

async function saysDone(content: string): Promise<{ notes: boolean; sagaNotes: boolean }> {
  await writeFile(join(p.loopDir, 'notes.md'), content);
  const { ctx } = makeContext(p.root, p.loopDir);
  const notes = await readNotes.execute({ file: 'notes.md' }, ctx);
  const inspected = await inspectFile.execute({ file: 'notes.md' }, ctx);
  return { notes: notesSayDone(notes.firstLine), sagaNotes: notesSayDone(inspected.firstLine) };
}

describe('issue 20.13: `STATUS: DONE` is more lenient than the docs said', () => {
  it.each(DONE.map((text) => [JSON.stringify(text), text]))('DONE: %s', async (_label, text) => {
    expect(await saysDone(text)).toEqual({ notes: true, sagaNotes: true });
  });
  it.each(NOT_DONE.map((text) => [JSON.stringify(text), text]))('not DONE: %s', async (_label, text) => {
    expect(await saysDone(text)).toEqual({ notes: false, sagaNotes: false });
  });
});
