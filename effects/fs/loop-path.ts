// Turning a file name relative to `.loop/` into an absolute path, refusing names that escape it.
import { isAbsolute, join } from 'node:path';

/** The absolute path of `.loop/<name>`; throws for an empty or absolute name or one with a `..` segment. */
export function loopPath(loopDir: string, name: string): string {
  const segments = name.split(/[\\/]/);
  if (name === '' || isAbsolute(name) || segments.includes('..')) {
    throw new Error(`"${name}" is not a file name inside .loop/ (absolute paths and ".." are refused)`);
  }
  return join(loopDir, name);
}
