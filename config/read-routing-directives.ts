// Reads the routing directives (DESIGN §15): `profile` candidates, `routing` and `max-tier`.
import { setScalar } from './config-draft.js';
import { oneArgument, reportAt, reportMissing, usageHint, type DirectiveContext } from './directive-context.js';
import { readAgentSpec } from './read-agent-directive.js';
import { oneOf } from './read-tool-directives.js';
import { BUILT_IN_AGENT_KINDS, TIERS, type Routing, type Tier } from './types.js';

const PROFILE_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,39}$/;
const OBJECTIVES = ['cost', 'speed', 'balanced'] as const;
/** `routing economic` without `min-samples`: the seed's window. */
export const DEFAULT_MIN_SAMPLES = 20;
/** A smaller window says nothing: the seed's floor. */
export const MIN_SAMPLES_FLOOR = 10;

/** `profile <name> [tier T] [model M] <agent>`: the options in any order, the agent last. */
export function readProfile(ctx: DirectiveContext): void {
  const tokens = ctx.line.tokens;
  const nameToken = tokens[1];
  if (nameToken === undefined) return reportMissing(ctx, 0);
  const name = nameToken.text;
  if (!PROFILE_NAME.test(name) || ['cmd', ...BUILT_IN_AGENT_KINDS].includes(name) || ['tier', 'model'].includes(name)) {
    return reportAt(ctx, nameToken, {
      message: `\`${name}\` is not a usable profile name`,
      hint: 'start with a letter, use letters, digits, - and _ (up to 40), and not an agent kind, cmd, tier or model',
    });
  }
  const first = ctx.draft.profiles.find((profile) => profile.name === name);
  if (first) return reportAt(ctx, nameToken, { message: `the profile \`${name}\` is already declared on line ${first.line}`, hint: 'give each profile its own name' });
  let tier: Tier = 'standard';
  let model: string | undefined;
  let at = 2;
  for (;;) {
    const option = tokens[at]?.text;
    if (option !== 'tier' && option !== 'model') break;
    const value = tokens[at + 1];
    if (value === undefined) return reportMissing(ctx, 1);
    if (option === 'tier') {
      const read = oneOf(ctx, value, TIERS, 'tier');
      if (read === null) return;
      tier = read;
    } else model = value.text;
    at += 2;
  }
  const agent = readAgentSpec(ctx, at);
  if (agent === null || 'profile' in agent) return;
  ctx.draft.profiles.push({ name, tier, ...(model === undefined ? {} : { model }), agent, line: ctx.line.number });
}

/** `routing fixed`, `routing escalate`, or `routing economic [objective cost|speed|balanced] [min-samples N]`. */
export function readRouting(ctx: DirectiveContext): void {
  const [, kindToken, ...rest] = ctx.line.tokens;
  if (kindToken === undefined) return reportMissing(ctx, 0);
  const kind = oneOf(ctx, kindToken, ['fixed', 'escalate', 'economic'] as const, 'routing setting');
  if (kind === null) return;
  if (kind !== 'economic') {
    const extra = rest[0];
    if (extra !== undefined) return reportAt(ctx, extra, { message: `\`routing ${kind}\` takes no options, but \`${extra.text}\` follows`, hint: usageHint(ctx) });
    return setScalar(ctx.draft, 'routing', { kind });
  }
  const routing: Extract<Routing, { kind: 'economic' }> = { kind, objective: 'balanced', minSamples: DEFAULT_MIN_SAMPLES };
  for (let i = 0; i < rest.length; i += 2) {
    const option = rest[i];
    const value = rest[i + 1];
    if (option === undefined) break;
    if (option.text !== 'objective' && option.text !== 'min-samples') {
      return reportAt(ctx, option, { message: `\`${option.text}\` is not a routing economic option`, hint: usageHint(ctx) });
    }
    if (value === undefined) return reportAt(ctx, option, { message: `\`${option.text}\` is missing its value`, hint: usageHint(ctx) });
    if (option.text === 'objective') {
      const objective = oneOf(ctx, value, OBJECTIVES, 'routing objective');
      if (objective === null) return;
      routing.objective = objective;
    } else {
      const count = /^\d+$/.test(value.text) ? Number(value.text) : NaN;
      if (!Number.isSafeInteger(count) || count < MIN_SAMPLES_FLOOR) {
        return reportAt(ctx, value, {
          message: `\`min-samples ${value.text}\` is below ${MIN_SAMPLES_FLOOR}`,
          hint: `use a whole number of at least ${MIN_SAMPLES_FLOOR}: fewer sequences say nothing about a profile`,
        });
      }
      routing.minSamples = count;
    }
  }
  setScalar(ctx.draft, 'routing', routing);
}

/** `max-tier light|standard|strong|frontier`: the highest tier `escalate` may reach. */
export function readMaxTier(ctx: DirectiveContext): void {
  const token = oneArgument(ctx);
  if (token === null) return;
  setScalar(ctx.draft, 'maxTier', oneOf(ctx, token, TIERS, 'tier') ?? undefined);
}
