// Reads the files a codex-style patch (`*** Begin Patch` … `*** End Patch`) adds, updates, deletes
// and moves, from its `*** … File:` and `*** Move to:` headers.
import type { ToolAct } from '../tool-act.js';

const HEADERS: readonly [string, 'write' | 'delete'][] = [
  ['*** Add File: ', 'write'],
  ['*** Update File: ', 'write'],
  ['*** Delete File: ', 'delete'],
  ['*** Move to: ', 'write'],
];

/**
 * The acts of a patch: a write per added, updated or moved-to file, a delete per deleted one; a
 * patch with no header is an `unknown` act (yoke cannot tell what it changes).
 * @example patchActs('*** Begin Patch\n*** Add File: notes.md\n+hi\n*** End Patch\n') // [{ kind: 'write', path: 'notes.md' }]
 */
export function patchActs(patch: string): ToolAct[] {
  const acts: ToolAct[] = [];
  for (const raw of patch.split('\n')) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const header = HEADERS.find(([prefix]) => line.startsWith(prefix));
    if (header === undefined) continue;
    const path = line.slice(header[0].length).trim();
    acts.push(header[1] === 'write' ? { kind: 'write', path } : { kind: 'delete', path });
  }
  return acts.length > 0 ? acts : [{ kind: 'unknown', what: 'a patch with no file headers yoke can read' }];
}
