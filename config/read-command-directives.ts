// Reads the named-command directives (guard, periodic, guard-after, accept) and `hook`.
import { withSuggestion } from './closest-match.js';
import type { Token } from './config-line.js';
import { argumentsAndCommand, reportAt, type DirectiveContext } from './directive-context.js';
import { parsePositiveInt } from './parse-number.js';
import { HOOK_EVENTS, type HookEvent, type NamedCommand } from './types.js';

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** Whether `token` is a legal name (guards, accepts, journeys); reports it when not. */
export function checkName(ctx: DirectiveContext, token: Token): boolean {
  if (NAME.test(token.text)) return true;
  reportAt(ctx, token, {
    message: `\`${token.text}\` is not a valid name`,
    hint: 'start with a letter or digit and use only letters, digits, `.`, `_` and `-`',
  });
  return false;
}

/** Whether `token` names nothing in `taken` yet; reports the clash, naming the earlier line, when it does. */
function checkUnique(ctx: DirectiveContext, token: Token, taken: readonly NamedCommand[], kind: string): boolean {
  const earlier = taken.find((entry) => entry.name === token.text);
  if (earlier === undefined) return true;
  reportAt(ctx, token, {
    message: `${kind} name \`${token.text}\` is already used on line ${earlier.line}`,
    hint: `give each ${kind} its own name`,
  });
  return false;
}

/** `guard <name> <command>`; guard and guard-after names share one namespace. */
export function readGuard(ctx: DirectiveContext): void {
  const read = argumentsAndCommand(ctx, 1);
  if (read === null) return;
  const [name] = read.args;
  if (!checkName(ctx, name) || !checkUnique(ctx, name, [...ctx.draft.guards, ...ctx.draft.guardAfters], 'guard')) return;
  ctx.draft.guards.push({ name: name.text, command: read.command, line: ctx.line.number });
}

/** `periodic <name> <every-N> <command>`. */
export function readPeriodic(ctx: DirectiveContext): void {
  const read = argumentsAndCommand(ctx, 2);
  if (read === null) return;
  const [name, everyToken] = read.args;
  const nameOk = checkName(ctx, name) && checkUnique(ctx, name, ctx.draft.periodics, 'periodic');
  const every = parsePositiveInt(everyToken.text, '5');
  if (!every.ok) reportAt(ctx, everyToken, every);
  if (!nameOk || !every.ok) return;
  ctx.draft.periodics.push({ name: name.text, every: every.value, command: read.command, line: ctx.line.number });
}

/** `guard-after <periodic-name> <guard-name> <command>`; the periodic is resolved once the whole file is read. */
export function readGuardAfter(ctx: DirectiveContext): void {
  const read = argumentsAndCommand(ctx, 2);
  if (read === null) return;
  const [periodic, name] = read.args;
  if (!checkName(ctx, name) || !checkUnique(ctx, name, [...ctx.draft.guards, ...ctx.draft.guardAfters], 'guard')) return;
  ctx.draft.guardAfters.push({
    name: name.text, periodic: periodic.text, periodicColumn: periodic.column, command: read.command, line: ctx.line.number,
  });
}

/** `accept <name> <command>`. */
export function readAccept(ctx: DirectiveContext): void {
  const read = argumentsAndCommand(ctx, 1);
  if (read === null) return;
  const [name] = read.args;
  if (!checkName(ctx, name) || !checkUnique(ctx, name, ctx.draft.accepts, 'accept')) return;
  ctx.draft.accepts.push({ name: name.text, command: read.command, line: ctx.line.number });
}

function isHookEvent(word: string): word is HookEvent {
  return (HOOK_EVENTS as readonly string[]).includes(word);
}

/** `hook <event> <command>`; an event may have several hooks. */
export function readHook(ctx: DirectiveContext): void {
  const read = argumentsAndCommand(ctx, 1);
  if (read === null) return;
  const [event] = read.args;
  if (!isHookEvent(event.text)) {
    const hint = withSuggestion(`use one of ${HOOK_EVENTS.join(', ')}`, event.text, HOOK_EVENTS);
    reportAt(ctx, event, { message: `\`${event.text}\` is not a hook event`, hint });
    return;
  }
  ctx.draft.hooks.push({ event: event.text, command: read.command, line: ctx.line.number });
}
