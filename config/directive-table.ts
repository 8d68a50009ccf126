// Every yoke.conf directive: how it is written, what its arguments are called, where it applies.
import { BUILT_IN_AGENT_KINDS, MODES, type Mode } from './types.js';

export const DIRECTIVE_NAMES = [
  'mode', 'agent', 'judge-agent', 'scoper-agent', 'model', 'judge-model', 'scoper-model',
  'max-iterations', 'allow', 'no-modify', 'guard', 'periodic', 'guard-after', 'hook',
  'judge-every', 'max-judge-failures', 'max-chunks', 'accept', 'budget', 'idle-timeout',
  'guard-timeout', 'commit', 'agent-timeout', 'price', 'rate-limit-wait',
] as const;
export type DirectiveName = (typeof DIRECTIVE_NAMES)[number];

/** What the parser and its messages need to know about one directive. */
export interface DirectiveSpec {
  /** The written form, shown in hints: `periodic <name> <every-N> <command>`. */
  usage: string;
  /** A complete valid line, shown in hints. */
  example: string;
  /** The argument names, in order, as used in "is missing its …" messages. */
  args: readonly string[];
  /** May appear at most once (`budget` is once per dimension, checked by its reader). */
  single: boolean;
  /** The modes in which it has an effect; elsewhere it is accepted with a warning. */
  modes: readonly Mode[];
}

const JUDGED: readonly Mode[] = ['brute', 'saga'];

function spec(usage: string, example: string, args: string[], single: boolean, modes: readonly Mode[] = MODES): DirectiveSpec {
  return { usage, example, args, single, modes };
}

const AGENT = `${BUILT_IN_AGENT_KINDS.join('|')}|cmd <command>`;

/** The directive table, keyed by directive name. */
export const DIRECTIVES: { readonly [K in DirectiveName]: DirectiveSpec } = {
  'mode': spec('mode loop|brute|saga|goal', 'mode loop', ['mode'], true),
  'agent': spec(`agent ${AGENT}`, 'agent claude', ['agent kind'], true),
  'judge-agent': spec(`judge-agent ${AGENT}`, 'judge-agent codex', ['agent kind'], true, JUDGED),
  'scoper-agent': spec(`scoper-agent ${AGENT}`, 'scoper-agent claude', ['agent kind'], true, ['saga']),
  'model': spec('model <name>', 'model sonnet', ['model name'], true),
  'judge-model': spec('judge-model <name>', 'judge-model opus', ['model name'], true, JUDGED),
  'scoper-model': spec('scoper-model <name>', 'scoper-model opus', ['model name'], true, ['saga']),
  // goal: the cap on attempts (reason `attempts`)
  'max-iterations': spec('max-iterations N', 'max-iterations 50', ['number'], true),
  'allow': spec('allow <path-prefix>', 'allow src/', ['path prefix'], false),
  'no-modify': spec('no-modify <path-prefix>', 'no-modify tests/', ['path prefix'], false),
  'guard': spec('guard <name> <command>', 'guard tests npm test', ['name', 'command'], false),
  'periodic': spec('periodic <name> <every-N> <command>', 'periodic audit 5 npm audit', ['name', 'every-N', 'command'], false),
  'guard-after': spec('guard-after <periodic-name> <guard-name> <command>', 'guard-after audit audit-clean ./check-audit.sh', ['periodic name', 'guard name', 'command'], false),
  'hook': spec('hook <event> <command>', 'hook done ./notify.sh', ['event', 'command'], false),
  'judge-every': spec('judge-every N', 'judge-every 5', ['number'], true, JUDGED),
  'max-judge-failures': spec('max-judge-failures N', 'max-judge-failures 3', ['number'], true, JUDGED),
  'max-chunks': spec('max-chunks N', 'max-chunks 20', ['number'], true, ['saga']),
  'accept': spec('accept <name> <command>', 'accept tests npm test', ['name', 'command'], false, ['goal']),
  'budget': spec('budget attempts|tokens|cost-usd|minutes|wall-minutes <value>', 'budget tokens 2M', ['dimension', 'value'], false),
  'idle-timeout': spec('idle-timeout <duration>', 'idle-timeout 20m', ['duration'], true),
  'guard-timeout': spec('guard-timeout <duration>', 'guard-timeout 10m', ['duration'], true),
  'commit': spec('commit off|done|each', 'commit done', ['setting'], true),
  'agent-timeout': spec('agent-timeout <duration>', 'agent-timeout 2h', ['duration'], true),
  'rate-limit-wait': spec('rate-limit-wait <duration>', 'rate-limit-wait 30s', ['duration'], true),
  'price': spec('price <model> <usd-per-Mtok-in> <usd-per-Mtok-out>', 'price gpt-5.5 1.25 10', ['model name', 'input price', 'output price'], false),
};

/** Narrows a word to a directive name. */
export function isDirectiveName(word: string): word is DirectiveName {
  return (DIRECTIVE_NAMES as readonly string[]).includes(word);
}
