// Expands a shell word as far as the script itself decides it: literals, quotes, braces and the
// variables it assigned; everything else (other variables, substitutions) is unknown until it runs.
import type { Finding } from '../classification.js';
import { isCredentialVariable } from '../secret-variable.js';
import type { ToolScope } from '../tool-scope.js';
import type { Arg } from './command-context.js';
import type { ShellState } from './shell-state.js';
import type { ShellPart, ShellStmt, ShellWord } from './shell-tree.js';

/** How many words one brace expansion may become before yoke calls it a glob. */
const MAX_ALTERNATIVES = 32;

/** Walks the statements of a substitution: the walker passes itself in, so this file needs no cycle. */
export type WalkStmts = (stmts: ShellStmt[], state: ShellState) => Finding[];

/** The environment a word is expanded in. */
export interface WordEnv {
  state: ShellState;
  scope: ToolScope;
  walk: WalkStmts;
  /** What a substitution prints when the script decides it (`$(echo rm)`), else undefined. */
  printed?: (stmts: ShellStmt[], state: ShellState) => string | undefined;
}

interface Expansion {
  text: string | null;
  glob: boolean;
  /** An unquoted expansion put text in it: the shell splits it into fields on blanks. */
  split?: boolean;
}

function globChars(text: string): boolean {
  return /[*?[]/.test(text);
}

function variable(name: string, env: WordEnv): string | null {
  if (env.state.vars.has(name)) return env.state.vars.get(name) ?? null;
  if (name === 'HOME') return env.scope.home ?? null;
  if (name === 'PWD') return env.state.cwd;
  return null;
}

function append(partials: Expansion[], text: string | null, glob: boolean, split = false): Expansion[] {
  return partials.map((partial) => ({
    text: partial.text === null || text === null ? null : partial.text + text,
    glob: partial.glob || glob,
    split: partial.split === true || split,
  }));
}

function expandPart(part: ShellPart, partials: Expansion[], env: WordEnv, findings: Finding[], first: boolean): Expansion[] {
  switch (part.kind) {
    case 'text': {
      const text = part.quoted && first && part.text.startsWith('~') ? `./${part.text}` : part.text;
      return append(partials, text, !part.quoted && globChars(part.text));
    }
    case 'param': {
      if (isCredentialVariable(part.name)) findings.push({ class: 'secret', reason: `it expands $${part.name}, which holds a credential` });
      const value = variable(part.name, env);
      return append(partials, value, value !== null && !part.quoted && globChars(value), !part.quoted);
    }
    case 'subst': {
      const state = { cwd: env.state.cwd, vars: new Map(env.state.vars) };
      findings.push(...env.walk(part.stmts, state));
      const printed = env.printed?.(part.stmts, state)?.replace(/\n+$/, '');
      return append(partials, printed ?? null, false, !part.quoted);
    }
    case 'dynamic':
      findings.push(...env.walk(part.stmts, { cwd: env.state.cwd, vars: new Map(env.state.vars) }));
      return append(partials, null, false);
    case 'brace': {
      const alternatives = part.alternatives.flatMap((word) => expandWord(word, env, findings));
      const product = partials.flatMap((partial) => alternatives.map((alt) => ({
        text: partial.text === null || alt.text === null ? null : partial.text + alt.text,
        glob: partial.glob || alt.glob,
      })));
      return product.length <= MAX_ALTERNATIVES ? product : [{ text: '*', glob: true }];
    }
  }
}

/** Field splitting: an unquoted expansion's blanks separate arguments (`X='rm -rf k'; $X`). */
function fields(expansion: Expansion): Arg[] {
  if (expansion.split !== true || expansion.text === null || !/\s/.test(expansion.text)) return [{ text: expansion.text, glob: expansion.glob }];
  return expansion.text.split(/\s+/).filter((field) => field !== '').map((field) => ({ text: field, glob: expansion.glob && globChars(field) }));
}

/** The arguments one word becomes (several through brace expansion or field splitting); substitutions' findings go to `findings`. */
export function expandWord(word: ShellWord, env: WordEnv, findings: Finding[]): Arg[] {
  let partials: Expansion[] = [{ text: '', glob: false }];
  word.parts.forEach((part, index) => { partials = expandPart(part, partials, env, findings, index === 0); });
  return partials.flatMap(fields);
}

/** The single text a word stands for (the first alternative), or null when it is known only at run time. */
export function wordText(word: ShellWord, env: WordEnv, findings: Finding[]): string | null {
  return expandWord(word, env, findings)[0]?.text ?? null;
}
