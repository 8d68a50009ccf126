// Reading `.yoke/context/`'s three files as they are now (DESIGN §9): the bytes of each, null when absent.
import { join } from 'node:path';
import { CONTEXT_DIR, CONTEXT_FILES, type ContextFileName } from '../../machines/context/context-files.js';
import { readOptionalFile } from '../fs/read-optional-file.js';

/** One context file's bytes (null = it does not exist). */
export interface ContextFileBytes {
  readonly name: ContextFileName;
  readonly content: Buffer | null;
}

/** The three files under `<root>/.yoke/context/`, in the block's order; a missing file (or folder) is null. */
export async function readContextFiles(root: string): Promise<ContextFileBytes[]> {
  return Promise.all(CONTEXT_FILES.map(async (name) => ({ name, content: await readOptionalFile(join(root, CONTEXT_DIR, name)) })));
}
