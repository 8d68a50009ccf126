// The digest a journaled scope names its tracked-file list by: the list is journaled once per agent
// call (with its first request), the later requests carry only this digest.
import { createHash } from 'node:crypto';

/**
 * sha256 of the paths, one per line.
 * @example trackedDigest(['a.txt', 'src/b.rs']).length // 64
 */
export function trackedDigest(files: readonly string[]): string {
  return createHash('sha256').update(files.join('\n')).digest('hex');
}
