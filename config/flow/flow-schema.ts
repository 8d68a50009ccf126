// The journey flow file (DESIGN §12): a start path, a time budget and 1–50 steps from a closed set
// of actions. Unknown actions and unknown fields are refused (strict objects), so a typo never
// turns into a step that silently does nothing.
import { z } from 'zod';
import { parseDuration } from '../parse-duration.js';

/** Limits of one flow (the whole flow's budget includes opening its page and every step). */
export const FLOW_LIMITS = {
  minSteps: 1,
  maxSteps: 50,
  defaultFlowMs: 60_000,
  maxFlowMs: 120_000,
  defaultStepMs: 10_000,
  maxStepMs: 30_000,
  /** a fill value, literal or read from the environment */
  maxValueChars: 8_192,
} as const;

export const STEP_ACTIONS = ['click', 'fill', 'press', 'expect-visible', 'expect-text', 'expect-url', 'reload'] as const;
export type StepAction = (typeof STEP_ACTIONS)[number];

/** A duration in yoke's syntax (`10s`, `1m30s`), above zero and at most `maxMs`. */
function duration(maxMs: number, what: string) {
  return z.string({ error: '`timeout` must be a duration like 10s' }).transform((text, ctx) => {
    const parsed = parseDuration(text);
    if (!parsed.ok) ctx.addIssue({ code: 'custom', message: `${parsed.message} (${parsed.hint.replace(', or 0 to turn it off', '')})` });
    else if (parsed.value === 0) ctx.addIssue({ code: 'custom', message: `a ${what} timeout cannot be 0` });
    else if (parsed.value > maxMs) ctx.addIssue({ code: 'custom', message: `\`${text}\` is above the ${what} maximum of ${maxMs / 1000}s` });
    return parsed.ok ? parsed.value : 0;
  });
}

const text = (field: string) => z.string({ error: `\`${field}\` must be a string (quote it)` }).min(1, { error: `\`${field}\` is empty` });
const selector = text('selector');
const stepTimeout = duration(FLOW_LIMITS.maxStepMs, 'step').optional();
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

const click = z.strictObject({ 'action': z.literal('click'), selector, 'timeout': stepTimeout });
const fill = z.strictObject({
  'action': z.literal('fill'),
  selector,
  'value': z.string({ error: '`value` must be a string (quote it)' }).max(FLOW_LIMITS.maxValueChars, { error: `\`value\` is longer than ${FLOW_LIMITS.maxValueChars} characters` }).optional(),
  'value-env': z.string({ error: '`value-env` must be the name of an environment variable' }).regex(ENV_NAME, { error: '`value-env` must be the name of an environment variable, like SMOKE_PASSWORD' }).optional(),
  'timeout': stepTimeout,
}).refine((step) => (step.value === undefined) !== (step['value-env'] === undefined), { error: 'a `fill` step needs exactly one of `value` or `value-env`' });
const press = z.strictObject({ 'action': z.literal('press'), selector, 'key': text('key'), 'timeout': stepTimeout });
const expectVisible = z.strictObject({ 'action': z.literal('expect-visible'), selector, 'timeout': stepTimeout });
const expectText = z.strictObject({
  'action': z.literal('expect-text'),
  selector,
  'text': text('text'),
  'exact': z.boolean({ error: '`exact` must be true or false' }).optional(),
  'timeout': stepTimeout,
});
const expectUrl = z.strictObject({
  'action': z.literal('expect-url'),
  'url': text('url').refine((url) => url.startsWith('/') || /^https?:\/\//.test(url), { error: '`url` must start with / (appended to base-url) or be an http(s) address' }),
  'timeout': stepTimeout,
});
const reload = z.strictObject({ 'action': z.literal('reload'), 'timeout': stepTimeout });

/** One step as written. */
export const stepSchema = z.discriminatedUnion('action', [click, fill, press, expectVisible, expectText, expectUrl, reload]);

/** The whole flow file as written. */
export const flowFileSchema = z.strictObject({
  path: text('path').refine((path) => path.startsWith('/'), { error: '`path` must start with /, like /login' }).optional(),
  timeout: duration(FLOW_LIMITS.maxFlowMs, 'flow').optional(),
  steps: z.array(stepSchema, { error: '`steps` must be a list of steps' })
    .min(FLOW_LIMITS.minSteps, { error: 'a flow needs at least one step' })
    .max(FLOW_LIMITS.maxSteps, { error: `a flow has at most ${FLOW_LIMITS.maxSteps} steps` }),
});

/** One step, ready to run: fields renamed, its own timeout applied (capped later by the flow's budget). */
export type FlowStep =
  | { action: 'click'; selector: string; timeoutMs: number }
  | { action: 'fill'; selector: string; value: { literal: string } | { env: string }; timeoutMs: number }
  | { action: 'press'; selector: string; key: string; timeoutMs: number }
  | { action: 'expect-visible'; selector: string; timeoutMs: number }
  | { action: 'expect-text'; selector: string; text: string; exact: boolean; timeoutMs: number }
  | { action: 'expect-url'; url: string; timeoutMs: number }
  | { action: 'reload'; timeoutMs: number };

/** A validated flow. It holds selectors, texts and fill values: it never goes into a report or the journal. */
export interface Flow {
  /** appended to base-url; `/` by default */
  path: string;
  timeoutMs: number;
  steps: FlowStep[];
}

/** The written form in its ready-to-run shape. */
export function toFlow(file: z.infer<typeof flowFileSchema>): Flow {
  return { path: file.path ?? '/', timeoutMs: file.timeout ?? FLOW_LIMITS.defaultFlowMs, steps: file.steps.map(toStep) };
}

function toStep(step: z.infer<typeof stepSchema>): FlowStep {
  const timeoutMs = step.timeout ?? FLOW_LIMITS.defaultStepMs;
  switch (step.action) {
    case 'click':
    case 'expect-visible':
      return { action: step.action, selector: step.selector, timeoutMs };
    case 'fill':
      return { action: 'fill', selector: step.selector, value: step['value-env'] === undefined ? { literal: step.value ?? '' } : { env: step['value-env'] }, timeoutMs };
    case 'press':
      return { action: 'press', selector: step.selector, key: step.key, timeoutMs };
    case 'expect-text':
      return { action: 'expect-text', selector: step.selector, text: step.text, exact: step.exact ?? false, timeoutMs };
    case 'expect-url':
      return { action: 'expect-url', url: step.url, timeoutMs };
    case 'reload':
      return { action: 'reload', timeoutMs };
  }
}
