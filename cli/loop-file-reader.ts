// Reads a lifecycle's own files under .loop/ (stories: prd.yaml), for the commands that validate them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LoopFileReader } from '../machines/lifecycles/lifecycle-descriptor.js';
import type { WorkspacePaths } from '../store/session/workspace-paths.js';

/** A reader of files under `.loop/`: the text, or null when the file does not exist. */
export function loopFileReader(paths: WorkspacePaths): LoopFileReader {
  return (name) => {
    try {
      return readFileSync(join(paths.loopDir, name), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  };
}
