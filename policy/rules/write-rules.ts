// Commands that create, copy, move, link or change files in place.
import type { Finding } from '../classification.js';
import type { Arg, CommandContext, CommandRule } from '../shell/command-context.js';
import { hasFlag, splitOptions } from '../shell/split-options.js';
import { overwriteFindings } from './overwrite-findings.js';

function writeAll(operands: readonly Arg[], ctx: CommandContext, doing: string): Finding[] {
  return operands.filter((arg) => arg.text !== '-').flatMap((arg) => ctx.path('write', arg, doing));
}

/** `touch`, `mkdir`, `tee`: each operand is written (`touch -r ref` reads ref); `tee` of an empty input (`< /dev/null`) empties them. */
export const writeFiles: CommandRule = (name, args, ctx) => {
  const split = splitOptions(args, { valued: ['m', 'mode', 'd', 'date', 't', 'r', 'reference', 'context'] });
  const reference = [...(split.values.get('r') ?? []), ...(split.values.get('reference') ?? [])];
  const empties = name === 'tee' && ctx.stdin === '' && !hasFlag(split, 'a', 'append');
  const written = empties
    ? split.operands.filter((arg) => arg.text !== '-').flatMap((arg) => ctx.path('truncate', arg, '`tee` of an empty input empties'))
    : writeAll(split.operands, ctx, `\`${name}\` writes`);
  return [...reference.flatMap((arg) => ctx.path('read', arg, `\`${name}\` reads`)), ...written];
};

/** `cp`, `mv`, `install`: sources are read (moved away: written), the destination written; `cp /dev/null f` empties f. */
export const copyOrMove: CommandRule = (name, args, ctx) => {
  const split = splitOptions(args, { valued: ['t', 'target-directory', 'S', 'suffix', 'm', 'mode', 'o', 'owner', 'g', 'group', 'backup'] });
  const targetDir = split.values.get('t') ?? split.values.get('target-directory');
  const sources = targetDir === undefined ? split.operands.slice(0, -1) : split.operands;
  const destination = targetDir?.[0] ?? split.operands.at(-1);
  if (destination === undefined) return [{ class: 'exec', reason: `\`${name}\` with no destination does nothing yoke can see` }];
  const moves = name === 'mv';
  const fromNull = sources.some((arg) => arg.text === '/dev/null');
  const noClobber = hasFlag(split, 'n', 'no-clobber') || targetDir !== undefined;
  const sourceFindings = sources.filter((arg) => arg.text !== '/dev/null')
    .flatMap((arg) => ctx.path(moves ? 'write' : 'read', arg, moves ? '`mv` moves away' : `\`${name}\` reads`));
  const destinationFindings = fromNull
    ? ctx.path('truncate', destination, `\`${name} /dev/null\` empties`)
    : noClobber ? ctx.path('write', destination, `\`${name}\` writes`) : overwriteFindings(destination, ctx, `\`${name}\` writes`);
  return [...sourceFindings, ...destinationFindings];
};

/** `ln`: the link is written (replacing a file with `-f`); linking to a secret is reading it. */
export const linkFile: CommandRule = (name, args, ctx) => {
  const split = splitOptions(args, { valued: ['t', 'target-directory', 'S', 'suffix'] });
  const force = hasFlag(split, 'f', 'force');
  const targetDir = split.values.get('t')?.[0];
  const targets = targetDir === undefined && split.operands.length > 1 ? split.operands.slice(0, -1) : split.operands;
  const link = targetDir ?? (split.operands.length > 1 ? split.operands.at(-1) : undefined);
  const secrets = targets.flatMap((arg) => ctx.path('read', arg, '`ln` links to')).filter((finding) => finding.class === 'secret');
  const written = link === undefined ? [] : force ? overwriteFindings(link, ctx, '`ln -f` replaces') : ctx.path('write', link, '`ln` writes');
  return [...secrets, ...written];
};

/** `truncate`: each operand is cut to a size (`-s +N` only grows it: a write). */
export const truncateFiles: CommandRule = (name, args, ctx) => {
  const split = splitOptions(args, { valued: ['s', 'size', 'r', 'reference', 'o'] });
  const size = (split.values.get('s') ?? split.values.get('size'))?.[0]?.text;
  const grows = size !== undefined && size !== null && size.startsWith('+');
  return split.operands.flatMap((arg) => ctx.path(grows ? 'write' : 'truncate', arg, `\`${name}\` ${grows ? 'grows' : 'truncates'}`));
};

/** `dd`: `if=` is read, `of=` overwritten. */
export const copyBlocks: CommandRule = (name, args, ctx) => args.flatMap((arg) => {
  const text = arg.text ?? '';
  if (text.startsWith('if=')) return ctx.path('read', { text: text.slice(3), glob: arg.glob }, `\`${name}\` reads`);
  if (text.startsWith('of=')) return ctx.path('truncate', { text: text.slice(3), glob: arg.glob }, `\`${name}\` overwrites`);
  return arg.text === null ? [{ class: 'exec', reason: `\`${name}\` has an operand known only when it runs` }] : [];
});

/** `chmod`, `chown`, `chgrp`: a change to each path; recursive is destructive (DESIGN §13). */
export const changeMode: CommandRule = (name, args, ctx) => {
  const split = splitOptions(args, { valued: ['reference', 'from'] });
  const recursive = hasFlag(split, 'R', 'recursive');
  const paths = split.values.has('reference') ? split.operands : split.operands.slice(1);
  if (recursive) return paths.flatMap((arg) => [{ class: 'destructive' as const, reason: `\`${name} -R\` changes every file under ${arg.text ?? 'a path known only when it runs'}` }, ...ctx.path('write', arg, `\`${name} -R\` changes`)]);
  return paths.flatMap((arg) => ctx.path('write', arg, `\`${name}\` changes`));
};

/** A sed script that deletes every line (`d`, `1,$d`): run in place it empties the file. */
function deletesEveryLine(script: string | null | undefined): boolean {
  return script != null && /^\s*(1\s*,\s*\$\s*)?d\s*;?\s*$/.test(script);
}

/** `sed`: the script is skipped; files are read, or written with `-i` (emptied by a script deleting every line). */
export const streamEdit: CommandRule = (name, args, ctx) => {
  const split = splitOptions(args, { valued: ['e', 'f', 'expression', 'file', 'l', 'line-length'] });
  const inPlace = hasFlag(split, 'i', 'in-place');
  const scriptByOption = split.values.has('e') || split.values.has('f') || split.values.has('expression') || split.values.has('file');
  const files = scriptByOption ? split.operands : split.operands.slice(1);
  const scripts = scriptByOption ? [...(split.values.get('e') ?? []), ...(split.values.get('expression') ?? [])].map((arg) => arg.text) : [split.operands[0]?.text];
  if (inPlace && scripts.length > 0 && scripts.every(deletesEveryLine)) return files.flatMap((arg) => ctx.path('truncate', arg, `\`${name} -i d\` empties`));
  if (inPlace) return writeAll(files, ctx, `\`${name} -i\` rewrites`);
  const reads = files.flatMap((arg) => ctx.path('read', arg, `\`${name}\` reads`));
  return reads.length > 0 ? reads : [{ class: 'read', reason: `\`${name}\` edits a stream` }];
};
