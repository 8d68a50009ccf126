// Whether a project has the context layer: the folder `.yoke/context/` (DESIGN §9; yoke never creates it by itself).
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { CONTEXT_DIR } from '../../machines/context/context-files.js';

/** True when `<root>/.yoke/context` is a directory (empty or not). */
export function contextLayerExists(root: string): boolean {
  try {
    return statSync(join(root, CONTEXT_DIR)).isDirectory();
  } catch {
    return false;
  }
}
