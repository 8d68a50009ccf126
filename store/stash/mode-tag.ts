// The mode a `.loop/` belongs to, as a stash tags it: read from `yoke.conf`'s first `mode` line.
import { readFileSync } from 'node:fs';
import { stripComment } from '../../config/strip-comment.js';
import { lifecycleNamed } from '../../machines/lifecycles/registry.js';
import type { ModeTag } from './stash-entry.js';

/**
 * The mode named by the first `mode` directive of the conf at `confPath`; `unknown` when the file
 * is missing or unreadable, has no `mode` line, or that line names no lifecycle of this yoke. Only
 * this line is read: the rest of the file may be invalid (a stash must still be able to park it).
 */
export function readModeTag(confPath: string): ModeTag {
  let text: string;
  try {
    text = readFileSync(confPath, 'utf8');
  } catch {
    return 'unknown';
  }
  for (const raw of text.replace(/^\uFEFF/, '').split(/\r?\n/)) {
    const words = stripComment(raw).trim().split(/[ \t]+/);
    if (words[0] !== 'mode') continue;
    const named = words.length === 2 ? words[1] : undefined;
    return named !== undefined && lifecycleNamed(named) !== undefined ? named : 'unknown';
  }
  return 'unknown';
}
