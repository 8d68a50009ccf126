// The rule for every command yoke knows, by name; any other command is `runUnknown`'s.
import type { Finding } from '../classification.js';
import type { Arg, CommandContext, CommandRule } from '../shell/command-context.js';
import { deleteFiles, shredFiles } from './delete-rules.js';
import { listVariables, printEnvironment, runWithEnvironment, setShell } from './environment-rules.js';
import { findFiles } from './find-rule.js';
import { runGit } from './git-rules.js';
import { INTERPRETERS, interpreterName, runInterpreter } from './interpreter-rules.js';
import { DATABASE_CLIENTS, NETWORK_TOOLS, PACKAGE_MANAGERS, reachDatabase, reachNetwork, runPackageManager, syncFiles } from './network-rules.js';
import { FILE_READERS, PATTERN_READERS, WORD_COMMANDS, readAfterPattern, readFiles, touchNothing } from './read-rules.js';
import { SHELLS, evaluate, runShell, sourceFile } from './shell-rules.js';
import { runMake } from './make-rule.js';
import { runUnknown } from './unknown-command.js';
import { runYoke } from './yoke-rules.js';
import { WRAPPERS, runRepeatedly, runWithInput, runWithTimeout, runWrapped } from './wrapper-rules.js';
import { changeMode, copyBlocks, copyOrMove, linkFile, streamEdit, truncateFiles, writeFiles } from './write-rules.js';

function table(names: readonly string[], rule: CommandRule): [string, CommandRule][] {
  return names.map((name) => [name, rule]);
}

/** `deno eval …` is inline code; other `deno` subcommands may download. */
const runDeno: CommandRule = (name, args, ctx) => (args[0]?.text === 'eval' ? runInterpreter(name, args, ctx) : runPackageManager(name, args, ctx));

/** Every command with a rule of its own. Later rows win over earlier ones. */
const RULES = new Map<string, CommandRule>([
  ...table(FILE_READERS, readFiles),
  ...table(WORD_COMMANDS, touchNothing),
  ...table(PATTERN_READERS, readAfterPattern),
  ...table(['rm', 'rmdir', 'unlink'], deleteFiles),
  ...table(['shred', 'srm', 'wipe'], shredFiles),
  ...table(['touch', 'mkdir', 'tee', 'mkfifo'], writeFiles),
  ...table(['cp', 'mv', 'install'], copyOrMove),
  ...table(['ln'], linkFile),
  ...table(['truncate'], truncateFiles),
  ...table(['dd'], copyBlocks),
  ...table(['chmod', 'chown', 'chgrp', 'chattr', 'setfacl'], changeMode),
  ...table(['sed', 'gsed'], streamEdit),
  ...table(['printenv'], printEnvironment),
  ...table(['env'], runWithEnvironment),
  ...table(['set'], setShell),
  ...table(['compgen', 'export', 'declare', 'typeset', 'readonly'], listVariables),
  ...table(['find'], findFiles),
  ...table(['git'], runGit),
  ...table(Object.keys(INTERPRETERS), runInterpreter),
  ...table(NETWORK_TOOLS, reachNetwork),
  ...table(DATABASE_CLIENTS, reachDatabase),
  ...table(['rsync'], syncFiles),
  ...table(PACKAGE_MANAGERS, runPackageManager),
  ...table(['deno'], runDeno),
  ...table(SHELLS, runShell),
  ...table(['eval'], evaluate),
  ...table(['source', '.'], sourceFile),
  ...table(WRAPPERS, runWrapped),
  ...table(['timeout', 'gtimeout'], runWithTimeout),
  ...table(['xargs', 'parallel'], runWithInput),
  ...table(['watch'], runRepeatedly),
  ...table(['yoke'], runYoke),
  ...table(['make', 'gmake'], runMake),
]);

/**
 * The findings of one command, by its base name (`/bin/rm` is `rm`, `python3.12` is python's).
 * @example commandFindings('rm', [literal('-rf'), literal('keep/')], ctx) // [{ class: 'destructive', … }]
 */
export function commandFindings(name: string, args: readonly Arg[], ctx: CommandContext): Finding[] {
  const rule = RULES.get(name) ?? (interpreterName(name) === undefined ? runUnknown : runInterpreter);
  return rule(name, args, ctx);
}
