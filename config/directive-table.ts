// Every yoke.conf directive: how it is written, what its arguments are called, where it applies.
import { lifecycleNames, type AgentRole, type LifecycleCatalog, type LifecycleFeature, type LifecycleTraits } from './lifecycle-catalog.js';
import { BUILT_IN_AGENT_KINDS, RULINGS, TIERS, TOOL_CLASSES } from './types.js';

export const DIRECTIVE_NAMES = [
  'mode', 'agent', 'judge-agent', 'scoper-agent', 'model', 'judge-model', 'scoper-model',
  'max-iterations', 'allow', 'no-modify', 'guard', 'periodic', 'guard-after', 'hook',
  'judge-every', 'max-judge-failures', 'max-chunks', 'accept', 'budget', 'idle-timeout',
  'guard-timeout', 'commit', 'agent-timeout', 'price', 'rate-limit-wait', 'tool', 'tool-control', 'artifact',
  'journey', 'base-url', 'redact', 'protect', 'profile', 'routing', 'max-tier', 'review', 'max-story-attempts', 'on-story-blocked', 'store',
  'parallel', 'context-budget',
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
  /** Where it has an effect; elsewhere it is accepted with a warning. */
  appliesTo: Applicability;
}

/** In every lifecycle, in those that call a role, or in those that have a feature. */
export type Applicability = 'every' | { role: AgentRole } | { feature: LifecycleFeature };

/** Does a directive that applies to `applicability` have an effect in `lifecycle`? */
export function appliesIn(applicability: Applicability, lifecycle: LifecycleTraits): boolean {
  if (applicability === 'every') return true;
  return 'role' in applicability ? lifecycle.roles.includes(applicability.role) : lifecycle.features.includes(applicability.feature);
}

/** Every directive's table; `mode` lists the catalog's lifecycles. */
export type DirectiveTable = { readonly [K in DirectiveName]: DirectiveSpec };

const JUDGE: Applicability = { role: 'judge' };
const SCOPER: Applicability = { role: 'scoper' };
const JUDGED: Applicability = { feature: 'judged' };
const STORIES: Applicability = { feature: 'stories' };

function spec(usage: string, example: string, args: string[], single: boolean, appliesTo: Applicability = 'every'): DirectiveSpec {
  return { usage, example, args, single, appliesTo };
}

const AGENT = `${BUILT_IN_AGENT_KINDS.join('|')}|cmd <command>`;

/** The table of every directive but `mode`, whose written form depends on the catalog. */
const DIRECTIVES: { readonly [K in Exclude<DirectiveName, 'mode'>]: DirectiveSpec } = {
  'agent': spec(`agent ${AGENT}|<profile>`, 'agent claude', ['agent kind'], true),
  'judge-agent': spec(`judge-agent ${AGENT}`, 'judge-agent codex', ['agent kind'], true, JUDGE),
  'scoper-agent': spec(`scoper-agent ${AGENT}`, 'scoper-agent claude', ['agent kind'], true, SCOPER),
  'model': spec('model <name>', 'model sonnet', ['model name'], true),
  'judge-model': spec('judge-model <name>', 'judge-model opus', ['model name'], true, JUDGE),
  'scoper-model': spec('scoper-model <name>', 'scoper-model opus', ['model name'], true, SCOPER),
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
  'max-chunks': spec('max-chunks N', 'max-chunks 20', ['number'], true, { feature: 'chunks' }),
  'accept': spec('accept <name> <command>', 'accept tests npm test', ['name', 'command'], false, { feature: 'acceptance' }),
  'budget': spec('budget attempts|tokens|cost-usd|minutes|wall-minutes <value>', 'budget tokens 2M', ['dimension', 'value'], false),
  'idle-timeout': spec('idle-timeout <duration>', 'idle-timeout 20m', ['duration'], true),
  'guard-timeout': spec('guard-timeout <duration>', 'guard-timeout 10m', ['duration'], true),
  'commit': spec('commit off|done|each', 'commit done', ['setting'], true),
  'agent-timeout': spec('agent-timeout <duration>', 'agent-timeout 2h', ['duration'], true),
  'rate-limit-wait': spec('rate-limit-wait <duration>', 'rate-limit-wait 30s', ['duration'], true),
  'tool': spec(`tool ${TOOL_CLASSES.join('|')} ${RULINGS.join('|')}`, 'tool network pass', ['class', 'ruling'], false),
  'tool-control': spec('tool-control on|off|advisory', 'tool-control advisory', ['setting'], true),
  'price': spec('price <model> <usd-per-Mtok-in> <usd-per-Mtok-out>', 'price gpt-5.5 1.25 10', ['model name', 'input price', 'output price'], false),
  // delivery evidence (DESIGN §12): read by `yoke check` in every mode
  'artifact': spec('artifact <path> <criterion>…', 'artifact dist/app.js tests smoke', ['path', 'criterion'], false),
  'journey': spec('journey <name> <flow.yaml>', 'journey smoke journeys/smoke.yaml', ['name', 'flow file'], false),
  'base-url': spec('base-url <url>', 'base-url http://127.0.0.1:3000', ['url'], true),
  'redact': spec('redact <VARIABLE>', 'redact DATABASE_URL', ['variable name'], false),
  // protected acceptance (DESIGN §16): the files that decide "done", in every mode
  'protect': spec('protect <path-or-glob>… | protect auto', 'protect auto', ['path or glob'], false),
  // routing (DESIGN §15): candidates for the worker, and how the next attempt picks one
  'profile': spec(`profile <name> [tier ${TIERS.join('|')}] [model <m>] ${AGENT}`, 'profile fast tier light model haiku claude', ['name', 'agent kind'], false),
  'routing': spec('routing fixed|escalate|economic [objective cost|speed|balanced] [min-samples N]', 'routing economic objective cost min-samples 20', ['setting'], true),
  'max-tier': spec(`max-tier ${TIERS.join('|')}`, 'max-tier strong', ['tier'], true),
  // stories (DESIGN §8)
  'review': spec('review on|off', 'review on', ['setting'], true, STORIES),
  'max-story-attempts': spec('max-story-attempts N', 'max-story-attempts 3', ['number'], true, STORIES),
  'on-story-blocked': spec('on-story-blocked stop|skip', 'on-story-blocked skip', ['setting'], true, STORIES),
  // the fleet (DESIGN §14): where the journal is kept (YOKE_STORE wins over it)
  'store': spec('store file|<postgres-url>', 'store postgres://yoke@db.example:5432/yoke', ['url'], true),
  // parallel stories in git worktrees (DESIGN §10)
  'parallel': spec('parallel N', 'parallel 4', ['number'], true, STORIES),
  // the context layer (DESIGN §9): the "Project context" block's size in characters, in every mode
  'context-budget': spec('context-budget <chars>', 'context-budget 8000', ['number of characters'], true),
};

/** The directive table for `catalog`: `mode` is written `mode loop|brute|saga|goal` with its names. */
export function directiveTable(catalog: LifecycleCatalog): DirectiveTable {
  const names = lifecycleNames(catalog);
  return { mode: spec(`mode ${names.join('|')}`, `mode ${names[0] ?? '<mode>'}`, ['mode'], true), ...DIRECTIVES };
}

/** Narrows a word to a directive name. */
export function isDirectiveName(word: string): word is DirectiveName {
  return (DIRECTIVE_NAMES as readonly string[]).includes(word);
}
