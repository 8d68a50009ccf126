// What every agent is told about protected files (DESIGN §16): the worker, so it fixes the code
// rather than the checks; the judge, so it never accepts a "fix" that touched them.
import type { Protection } from './protection.js';

/** At most this many paths are listed; the patterns cover the rest. */
const LISTED = 40;

/** What each role is told to do about the protected files. */
const ROLE_RULE = {
  worker: 'Do not change, delete, rename or chmod them, and do not add files they cover: yoke reverts any such change, skips the guards, and the attempt fails. Make the code pass them instead.',
  judge: 'A change that weakens or edits them is never a valid fix: yoke reverts such changes, so judge the work against these files exactly as listed.',
  scoper: 'Do not change them, and do not plan a chunk that changes them: yoke reverts any change to them after every agent call. A chunk is done when the code passes them as they are.',
} as const;

/** Told to a judge whose own changes are looked for (runs with `protectAll`); older runs' prompts stay as they were journaled. */
const JUDGE_SCANNED = ' Do not change them yourself either: yoke reverts it, and overrules the verdict of a judge that changed them as FAIL.';

/**
 * The prompt section naming the protected files (empty without protection, so prompts of runs
 * without `protect` are unchanged).
 */
export function protectionNote(protection: Protection | undefined, role: 'worker' | 'judge' | 'scoper', scansEveryCall = false): string {
  if (protection === undefined) return '';
  const paths = protection.files.map((file) => file.path);
  const listed = paths.slice(0, LISTED).map((path) => `- \`${path}\``);
  if (paths.length > LISTED) listed.push(`- … and ${paths.length - LISTED} more`);
  const lines = [
    '',
    '## Protected files (acceptance infrastructure)',
    '',
    `These files decide whether the work is done: the tests, the check scripts and how they run. They are protected by \`protect ${protection.patterns.join(' ')}\` in yoke.conf.`,
    `${ROLE_RULE[role]}${role === 'judge' && scansEveryCall ? JUDGE_SCANNED : ''}`,
    '',
    ...(listed.length > 0 ? listed : ['- (no file exists yet under these patterns; any new one would be a violation)']),
    '',
  ];
  return lines.join('\n');
}
