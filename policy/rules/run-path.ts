// A file of the project run by its path (`./clean.sh`, `scripts/x.py`): classified by its `#!` line
// from its text (script-file.ts says where the text comes from); without the text, like any program
// yoke has no rule for.
import type { Finding } from '../classification.js';
import type { Arg, CommandContext } from '../shell/command-context.js';
import { inlineCodeFindings } from './inline-code-findings.js';
import { INTERPRETERS, interpreterName } from './interpreter-rules.js';
import { SHELLS } from './shell-rules.js';
import { runUnknown } from './unknown-command.js';

/** The program a `#!` line names (`#!/usr/bin/env -S python3 -u` → python3), or null without one. */
export function shebangProgram(text: string): string | null {
  if (!text.startsWith('#!')) return null;
  const words = (text.slice(2).split('\n')[0] ?? '').trim().split(/\s+/);
  const first = words[0]?.split('/').at(-1) ?? '';
  if (first !== 'env') return first === '' ? null : first;
  return words.slice(1).find((word) => !word.startsWith('-')) ?? null;
}

/**
 * `./clean.sh`, `scripts/x.py`: a file run by its path, classified by its `#!` line (none: a shell
 * script). Without its text (or for a program yoke cannot read as a script) it is judged by its
 * name, as `byName` does (`./node_modules/.bin/curl` reaches the network).
 */
export function runPath(name: Arg, args: readonly Arg[], ctx: CommandContext, byName: () => Finding[]): Finding[] {
  const shown = name.text ?? 'a file';
  const file = ctx.scriptFile(name);
  const program = file.text === null ? null : shebangProgram(file.text);
  const lang = program === null ? undefined : interpreterName(program);
  if (file.text === null || program !== null && lang === undefined && !(SHELLS as readonly string[]).includes(program)) {
    const found = byName();
    return file.unread && file.path !== null ? [...found, { class: 'exec', reason: `it runs ${shown}, which yoke has not read`, wants: file.path }] : found;
  }
  const text = file.text;
  const body = lang === undefined ? ctx.script(text, `the script ${shown} runs`) : inlineCodeFindings(text, INTERPRETERS[lang]?.lang ?? lang, ctx);
  return [{ class: 'exec', reason: `it runs the script file ${shown}` }, ...body, ...runUnknown(shown, args, ctx).slice(1)];
}
