// The config as it is being read, line by line, before cross-line checks and defaults.
import type { DirectiveName } from './directive-table.js';
import { CONFIG_DEFAULTS, type Artifact, type BudgetDimension, type Config, type Journey, type NamedCommand, type Profile, type ToolClass, type ToolRule } from './types.js';

/** The Config fields set by single-value directives. */
export type ScalarKey =
  | 'mode' | 'agent' | 'judgeAgent' | 'scoperAgent' | 'model' | 'judgeModel' | 'scoperModel'
  | 'maxIterations' | 'judgeEvery' | 'maxJudgeFailures' | 'maxChunks' | 'idleTimeoutMs'
  | 'guardTimeoutMs' | 'commit' | 'agentTimeoutMs' | 'rateLimitWaitMs' | 'toolControl' | 'baseUrl'
  | 'agentProfile' | 'judgeProfile' | 'scoperProfile' | 'routing' | 'maxTier'
  | 'review' | 'maxStoryAttempts' | 'onStoryBlocked' | 'store' | 'parallel' | 'contextBudget';

/** A value with the place it was written. */
export interface Located<T> {
  value: T;
  line: number;
  column: number;
}

/** Everything read so far; values of malformed lines are simply absent. */
export interface ConfigDraft {
  scalars: Partial<Pick<Config, ScalarKey>>;
  allow: Located<string>[];
  noModify: Located<string>[];
  guards: NamedCommand[];
  periodics: (NamedCommand & { every: number })[];
  guardAfters: (NamedCommand & { periodic: string; periodicColumn: number })[];
  hooks: Config['hooks'];
  accepts: NamedCommand[];
  budgets: Partial<Record<BudgetDimension, number>>;
  prices: NonNullable<Config['prices']>;
  toolRules: Partial<Record<ToolClass, ToolRule>>;
  /** `artifact` lines, each criterion name with its column (resolved once the whole file is read). */
  artifacts: (Omit<Artifact, 'criteria'> & { criteria: Located<string>[] })[];
  /** `journey` lines, with the column of the name (for the clash with an `accept` of the same name). */
  journeys: (Journey & { column: number })[];
  /** `redact` variable names */
  redact: Located<string>[];
  /** `protect` patterns (`auto` included as written) */
  protect: Located<string>[];
  /** `profile` lines, in file order */
  profiles: Profile[];
  /** `agent`/`judge-agent`/`scoper-agent` lines that name a profile, resolved once every `profile` line is read */
  profileRefs: Partial<Record<'agent' | 'judgeAgent' | 'scoperAgent', Located<string>>>;
  /** First line of each single-valued directive (and of `budget <dimension>`), to name it in duplicate errors. */
  firstLines: Map<string, number>;
  /** Every directive line, in file order, for the mode-applicability check. */
  uses: Located<DirectiveName>[];
}

/** An empty draft. */
export function createConfigDraft(): ConfigDraft {
  return {
    scalars: {}, allow: [], noModify: [], guards: [], periodics: [], guardAfters: [], hooks: [],
    accepts: [], budgets: {}, prices: {}, toolRules: {}, artifacts: [], journeys: [], redact: [], protect: [], profiles: [], profileRefs: {}, firstLines: new Map(), uses: [],
  };
}

/** The finished Config with defaults applied, or null when `mode` or `agent` never got a value. */
export function finishConfig(draft: ConfigDraft): Config | null {
  const { mode, agent, ...rest } = draft.scalars;
  if (mode === undefined || agent === undefined) return null;
  return {
    mode,
    agent,
    maxIterations: CONFIG_DEFAULTS.maxIterations,
    maxJudgeFailures: CONFIG_DEFAULTS.maxJudgeFailures,
    maxChunks: CONFIG_DEFAULTS.maxChunks,
    idleTimeoutMs: CONFIG_DEFAULTS.idleTimeoutMs,
    guardTimeoutMs: CONFIG_DEFAULTS.guardTimeoutMs,
    commit: CONFIG_DEFAULTS.commit,
    agentTimeoutMs: CONFIG_DEFAULTS.agentTimeoutMs,
    toolControl: CONFIG_DEFAULTS.toolControl,
    ...rest,
    allow: draft.allow.map((entry) => entry.value),
    noModify: draft.noModify.map((entry) => entry.value),
    ignoredProtected: draft.noModify.map((entry) => entry.value),
    guards: draft.guards,
    periodics: draft.periodics,
    guardAfters: draft.guardAfters.map(({ periodicColumn: _column, ...guardAfter }) => guardAfter),
    hooks: draft.hooks,
    accepts: draft.accepts,
    budgets: draft.budgets,
    prices: draft.prices,
    toolRules: draft.toolRules,
    // Only when declared: a config without them stays exactly what older yokes journaled.
    ...(draft.artifacts.length === 0 ? {} : { artifacts: draft.artifacts.map((artifact) => ({ ...artifact, criteria: artifact.criteria.map((criterion) => criterion.value) })) }),
    ...(draft.journeys.length === 0 ? {} : { journeys: draft.journeys.map(({ column: _column, ...journey }) => journey) }),
    ...(draft.redact.length > 0 ? { redact: draft.redact.map((entry) => entry.value) } : {}),
    ...(draft.protect.length > 0 ? { protect: draft.protect.map((entry) => ({ pattern: entry.value, line: entry.line })) } : {}),
    ...(draft.profiles.length > 0 ? { profiles: draft.profiles } : {}),
  };
}

/**
 * Stores a single-value setting. The first value written wins, so a repeated line (an error of its
 * own) cannot change the mode the rest of the file is checked against; an undefined value (a
 * malformed line) leaves the draft untouched.
 */
export function setScalar<K extends ScalarKey>(draft: ConfigDraft, key: K, value: Config[K] | undefined): void {
  if (value !== undefined && draft.scalars[key] === undefined) draft.scalars[key] = value;
}
