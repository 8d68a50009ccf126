// Commands that only read: their operands are files to read (a secret makes the call `secret`).
import type { Finding } from '../classification.js';
import { literal, type Arg, type CommandContext, type CommandRule } from '../shell/command-context.js';
import { splitOptions } from '../shell/split-options.js';

/** Commands whose operands are all files or folders they read or list. */
export const FILE_READERS = [
  'cat', 'tac', 'head', 'tail', 'less', 'more', 'nl', 'wc', 'sort', 'uniq', 'cut', 'paste', 'join', 'comm', 'diff',
  'cmp', 'file', 'stat', 'ls', 'll', 'tree', 'du', 'df', 'xxd', 'od', 'hexdump', 'strings', 'base64', 'md5sum', 'sha1sum',
  'sha256sum', 'sha512sum', 'cksum', 'column', 'fold', 'fmt', 'rev', 'iconv', 'zcat', 'bat', 'realpath', 'readlink',
  'batcat', 'lsof', 'tr',
] as const;

/** Commands whose operands are words, not paths: they touch no file. */
export const WORD_COMMANDS = [
  'echo', 'printf', 'test', '[', 'expr', 'true', 'false', ':', 'sleep', 'seq', 'yes', 'date', 'basename', 'dirname',
  'pwd', 'whoami', 'id', 'uname', 'hostname', 'which', 'type', 'hash', 'wait', 'jobs', 'shift', 'return', 'exit',
  'break', 'continue', 'read', 'umask', 'ulimit', 'getopts', 'let', 'tput', 'clear', 'alias', 'unalias', 'unset',
  'shopt', 'trap', 'cal', 'nproc', 'arch', 'tty', 'locale', 'history', 'help', 'man', 'whereis', 'uptime', 'groups',
] as const;

/** Commands whose first operand is a pattern or program and the rest files (unless the pattern comes by option). */
const PATTERN_FIRST: { readonly [name: string]: { valued: string[]; patternBy: string[] } } = {
  grep: { valued: ['e', 'f', 'm', 'A', 'B', 'C', 'd', 'D', 'regexp', 'file', 'max-count', 'include', 'exclude', 'exclude-dir', 'label'], patternBy: ['e', 'f', 'regexp', 'file'] },
  egrep: { valued: ['e', 'f', 'm', 'A', 'B', 'C'], patternBy: ['e', 'f'] },
  fgrep: { valued: ['e', 'f', 'm', 'A', 'B', 'C'], patternBy: ['e', 'f'] },
  rg: { valued: ['e', 'f', 'g', 'glob', 't', 'T', 'm', 'A', 'B', 'C', 'regexp', 'file', 'type', 'max-count', 'j', 'M'], patternBy: ['e', 'f', 'regexp', 'file'] },
  ag: { valued: ['G', 'A', 'B', 'C', 'm'], patternBy: [] },
  ack: { valued: ['A', 'B', 'C', 'm'], patternBy: [] },
  jq: { valued: ['f', 'arg', 'argjson', 'slurpfile', 'rawfile', 'indent', 'from-file'], patternBy: ['f', 'from-file'] },
  yq: { valued: [], patternBy: [] },
};

function readAll(name: string, operands: readonly Arg[], ctx: CommandContext): Finding[] {
  const files = operands.filter((arg) => arg.text !== '-');
  const findings = files.flatMap((arg) => ctx.path('read', arg, `\`${name}\` reads`));
  return findings.length > 0 ? findings : [{ class: 'read', reason: `\`${name}\` reads` }];
}

/** `cat`, `ls`, `wc` …: every operand is read. */
export const readFiles: CommandRule = (name, args, ctx) => readAll(name, splitOptions(args).operands, ctx);

/** `echo`, `pwd`, `test` …: no file is touched. */
export const touchNothing: CommandRule = (name) => [{ class: 'read', reason: `\`${name}\` only prints or tests words` }];

/**
 * Whether the search reads every file under its folders, hidden and ignored ones too: `grep -r`
 * (and `-R`, `-d recurse`); `rg` only with `-uu` (or `--hidden` with `--no-ignore`), as it skips
 * hidden and git-ignored files (yoke's `.loop/.journal/`, most `.env` files) otherwise.
 */
function readsEverything(name: string, args: readonly Arg[], split: ReturnType<typeof splitOptions>): boolean {
  const words = args.map((arg) => arg.text ?? '');
  if (name === 'rg') {
    const unrestricted = words.filter((word) => /^-u+$/.test(word)).reduce((count, word) => count + word.length - 1, 0);
    return unrestricted >= 2 || (unrestricted >= 1 || split.flags.has('no-ignore')) && (split.flags.has('hidden') || split.flags.has('.'));
  }
  if (!['grep', 'egrep', 'fgrep'].includes(name)) return false;
  return split.flags.has('r') || split.flags.has('R') || split.flags.has('recursive') || split.flags.has('dereference-recursive')
    || split.values.get('d')?.[0]?.text === 'recurse' || words.includes('--directories=recurse');
}

/** `grep`, `rg`, `jq` …: the pattern (first operand, unless given by option) is skipped, the rest is read (`grep -r`: searched). */
export const readAfterPattern: CommandRule = (name, args, ctx) => {
  const spec = PATTERN_FIRST[name] ?? { valued: [], patternBy: [] };
  const split = splitOptions(args, { valued: spec.valued });
  const patternGiven = spec.patternBy.some((option) => split.values.has(option));
  const files = patternGiven ? split.operands : split.operands.slice(1);
  const byOption = ['f', 'file', 'from-file', 'slurpfile', 'rawfile'].flatMap((option) => split.values.get(option) ?? []);
  if (readsEverything(name, args, split)) {
    const roots = files.length > 0 ? files : [literal('.')];
    return [...roots.flatMap((arg) => ctx.path('search', arg, `\`${name}\` searches`)), ...byOption.flatMap((arg) => ctx.path('read', arg, `\`${name}\` reads`))];
  }
  return readAll(name, [...files, ...byOption], ctx);
};

/** The commands `readAfterPattern` knows. */
export const PATTERN_READERS = Object.keys(PATTERN_FIRST);
