// What every agent is told about protected files (DESIGN §16): the worker, so it fixes the code
// rather than the checks; the judge, so it never accepts a "fix" that touched them.
import type { Protection } from './protection.js';

/** At most this many paths are listed; the patterns cover the rest. */
const LISTED = 40;

/**
 * The prompt section naming the protected files (empty without protection, so prompts of runs
 * without `protect` are unchanged).
 */
export function protectionNote(protection: Protection | undefined, role: 'worker' | 'judge'): string {
  if (protection === undefined) return '';
  const paths = protection.files.map((file) => file.path);
  const listed = paths.slice(0, LISTED).map((path) => `- \`${path}\``);
  if (paths.length > LISTED) listed.push(`- … and ${paths.length - LISTED} more`);
  const lines = [
    '',
    '## Protected files (acceptance infrastructure)',
    '',
    `These files decide whether the work is done: the tests, the check scripts and how they run. They are protected by \`protect ${protection.patterns.join(' ')}\` in yoke.conf.`,
    role === 'worker'
      ? 'Do not change, delete, rename or chmod them, and do not add files they cover: yoke reverts any such change, skips the guards, and the attempt fails. Make the code pass them instead.'
      : 'A change that weakens or edits them is never a valid fix: yoke reverts such changes, so judge the work against these files exactly as listed.',
    '',
    ...(listed.length > 0 ? listed : ['- (no file exists yet under these patterns; any new one would be a violation)']),
    '',
  ];
  return lines.join('\n');
}
