// The reader for every directive, checked complete by the compiler.
import type { DirectiveContext } from './directive-context.js';
import type { DirectiveName } from './directive-table.js';
import { setScalar, type ScalarKey } from './config-draft.js';
import { readAgentSpec } from './read-agent-directive.js';
import { readBoundary } from './read-boundary-directive.js';
import { readBudget } from './read-budget-directive.js';
import { readPrice } from './read-price-directive.js';
import { readToolControl, readToolRule } from './read-tool-directives.js';
import { readProtect } from './read-protect-directive.js';
import { readRedact } from './read-redact-directive.js';
import { readMaxTier, readProfile, readRouting } from './read-routing-directives.js';
import { readAccept, readGuard, readGuardAfter, readHook, readPeriodic } from './read-command-directives.js';
import { readArtifact, readBaseUrl, readJourney } from './read-evidence-directives.js';
import { readCommit, readCount, readMode, readModel, readOnStoryBlocked, readParallel, readRateLimitWait, readReview, readTimeout } from './read-setting-directives.js';
import { readStore } from './read-store-directive.js';

function readAgent(key: Extract<ScalarKey, 'agent' | 'judgeAgent' | 'scoperAgent'>): (ctx: DirectiveContext) => void {
  return (ctx) => {
    const spec = readAgentSpec(ctx, 1, true);
    if (spec !== null && 'profile' in spec) {
      ctx.draft.profileRefs[key] ??= { value: spec.profile.text, line: ctx.line.number, column: spec.profile.column };
    } else setScalar(ctx.draft, key, spec ?? undefined);
  };
}

/** Reads one directive line into the draft, reporting what is wrong with it. */
export const DIRECTIVE_READERS: { readonly [K in DirectiveName]: (ctx: DirectiveContext) => void } = {
  'mode': readMode,
  'agent': readAgent('agent'),
  'judge-agent': readAgent('judgeAgent'),
  'scoper-agent': readAgent('scoperAgent'),
  'model': readModel('model'),
  'judge-model': readModel('judgeModel'),
  'scoper-model': readModel('scoperModel'),
  'max-iterations': readCount('maxIterations'),
  'allow': readBoundary('allow'),
  'no-modify': readBoundary('noModify'),
  'guard': readGuard,
  'periodic': readPeriodic,
  'guard-after': readGuardAfter,
  'hook': readHook,
  'judge-every': readCount('judgeEvery'),
  'max-judge-failures': readCount('maxJudgeFailures'),
  'max-chunks': readCount('maxChunks'),
  'accept': readAccept,
  'budget': readBudget,
  'idle-timeout': readTimeout('idleTimeoutMs'),
  'guard-timeout': readTimeout('guardTimeoutMs'),
  'commit': readCommit,
  'agent-timeout': readTimeout('agentTimeoutMs'),
  'rate-limit-wait': readRateLimitWait,
  'price': readPrice,
  'tool': readToolRule,
  'tool-control': readToolControl,
  'artifact': readArtifact,
  'journey': readJourney,
  'base-url': readBaseUrl,
  'redact': readRedact,
  'protect': readProtect,
  'profile': readProfile,
  'routing': readRouting,
  'max-tier': readMaxTier,
  'review': readReview,
  'max-story-attempts': readCount('maxStoryAttempts'),
  'on-story-blocked': readOnStoryBlocked,
  'context-budget': readCount('contextBudget'),
  'store': readStore,
  'parallel': readParallel,
};
