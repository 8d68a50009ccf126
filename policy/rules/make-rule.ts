// `make [targets]`: the recipes it runs come from the Makefile, which the gate reads like a script
// file (journaled in the scope). Each target's recipe lines, and those of the prerequisites it
// defines, are classified as shell, with the Makefile's simple variables expanded; a Makefile yoke
// cannot see leaves `make` an `exec`.
import type { Finding } from '../classification.js';
import { resolvePath } from '../paths/resolve-path.js';
import { literal, type Arg, type CommandContext, type CommandRule } from '../shell/command-context.js';
import { splitOptions } from '../shell/split-options.js';

const VALUED = ['f', 'file', 'makefile', 'C', 'directory', 'I', 'include-dir', 'j', 'jobs', 'l', 'load-average', 'o', 'old-file', 'W', 'what-if', 'new-file', 'assume-new', 'assume-old', 'eval'];
/** The names GNU make looks for, in its order. */
const MAKEFILES = ['GNUmakefile', 'makefile', 'Makefile'];
/** How many levels of prerequisites are followed. */
const MAX_DEPTH = 3;

interface Makefile {
  rules: Map<string, { prerequisites: string[]; recipe: string[] }>;
  vars: Map<string, string>;
  first: string | null;
}

/** Reads targets, their prerequisites and recipe lines, and `NAME = value` variables (a simple reading, not make's). */
export function readMakefile(text: string): Makefile {
  const rules: Makefile['rules'] = new Map();
  const vars = new Map<string, string>([['RM', 'rm -f']]);
  let first: string | null = null;
  let current: Array<{ recipe: string[] }> = [];
  for (const raw of text.split('\n')) {
    const line = raw.replace(/\r$/, '');
    if (line.startsWith('\t')) { for (const rule of current) rule.recipe.push(line.slice(1)); continue; }
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    const assign = /^\s*(?:export\s+|override\s+)?([A-Za-z_][A-Za-z0-9_.-]*)\s*(?::{1,3}=|\?=|\+=|=)\s*(.*)$/.exec(line);
    if (assign?.[1] !== undefined) { vars.set(assign[1], assign[2] ?? ''); current = []; continue; }
    const rule = /^([^:=#]+?)\s*::?\s*([^=]*)$/.exec(line);
    if (rule?.[1] === undefined) { current = []; continue; }
    const [targetText, rest = ''] = [rule[1], rule[2]];
    const [prerequisites, inline] = rest.split(';', 2) as [string, string | undefined];
    current = targetText.trim().split(/\s+/).map((target) => {
      const entry = rules.get(target) ?? { prerequisites: [], recipe: [] };
      entry.prerequisites.push(...prerequisites.trim().split(/\s+/).filter((word) => word !== ''));
      if (inline !== undefined && inline.trim() !== '') entry.recipe.push(inline.trim());
      rules.set(target, entry);
      if (first === null && !target.startsWith('.') && !target.includes('%')) first = target;
      return entry;
    });
  }
  return { rules, vars, first };
}

/** A recipe line as the shell gets it: make's prefixes dropped, its variables expanded as far as the Makefile says. */
function recipeCommand(line: string, target: string, vars: ReadonlyMap<string, string>): string {
  let text = line.replace(/^[@+-]+/, '');
  for (let round = 0; round < 3; round += 1) text = text.replace(/\$[({]([A-Za-z_][A-Za-z0-9_.-]*)[)}]/g, (whole, name: string) => vars.get(name) ?? whole);
  return text.replace(/\$@/g, target).replace(/\$\$/g, '$');
}

function recipeFindings(makefile: Makefile, target: string, ctx: CommandContext, depth: number, seen: Set<string>): Finding[] {
  const rule = makefile.rules.get(target);
  if (rule === undefined || seen.has(target) || depth > MAX_DEPTH) return [];
  seen.add(target);
  const before = rule.prerequisites.flatMap((prerequisite) => recipeFindings(makefile, prerequisite, ctx, depth + 1, seen));
  return [...before, ...rule.recipe.flatMap((line) => ctx.script(recipeCommand(line, target, makefile.vars), `\`make ${target}\`'s recipe runs`))];
}

/** `make`, `gmake`: the recipes of the targets asked for (else the first), from the Makefile the gate read. */
export const runMake: CommandRule = (name, args, ctx) => {
  const split = splitOptions(args, { valued: VALUED });
  const dirArg = split.values.get('C')?.[0] ?? split.values.get('directory')?.[0];
  const dir = dirArg === undefined ? ctx.cwd : dirArg.text === null || ctx.cwd === null && !dirArg.text.startsWith('/') ? null : resolvePath(ctx.cwd ?? '/', dirArg.text, ctx.scope.home);
  const at = dir === ctx.cwd ? ctx : ctx.moveTo(dir);
  const named = split.values.get('f')?.[0] ?? split.values.get('file')?.[0] ?? split.values.get('makefile')?.[0];
  const candidates: Arg[] = named !== undefined ? [named] : MAKEFILES.map(literal);
  const files = candidates.map((arg) => at.scriptFile(arg));
  const found = files.find((file) => file.text !== null);
  if (found?.text == null) {
    const wants = files.filter((file) => file.unread && file.path !== null).map((file) => ({ class: 'exec' as const, reason: `\`${name}\` runs the recipes of a Makefile yoke has not read`, wants: file.path ?? '' }));
    return wants.length > 0 ? wants : [{ class: 'exec', reason: `\`${name}\` runs the recipes of a Makefile whose text yoke cannot see` }];
  }
  const makefile = readMakefile(found.text);
  const targets = split.operands.filter((arg) => arg.text === null || !arg.text.includes('='));
  if (targets.some((arg) => arg.text === null)) return [{ class: 'exec', reason: `\`${name}\` builds a target known only when it runs` }];
  const chosen = targets.length > 0 ? targets.map((arg) => arg.text ?? '') : makefile.first === null ? [] : [makefile.first];
  const seen = new Set<string>();
  return [{ class: 'exec', reason: `\`${name}\` runs the recipes of ${chosen.join(', ') || 'no target'}` }, ...chosen.flatMap((target) => recipeFindings(makefile, target, at, 0, seen))];
};
