// `git`: which subcommands reach the network, destroy work, rewrite the repository's configuration,
// only read, or do something else (`exec`: commits, merges, and the like write `.git/` by design).
import type { Finding } from '../classification.js';
import { resolvePath } from '../paths/resolve-path.js';
import type { Arg, CommandContext, CommandRule } from '../shell/command-context.js';
import { hasFlag, splitOptions } from '../shell/split-options.js';

const NETWORK = ['clone', 'fetch', 'pull', 'push', 'ls-remote', 'submodule', 'remote-update', 'request-pull', 'send-email', 'svn', 'p4'];
const READING = [
  'status', 'log', 'diff', 'show', 'blame', 'rev-parse', 'ls-files', 'ls-tree', 'grep', 'describe', 'shortlog', 'reflog',
  'cat-file', 'merge-base', 'rev-list', 'whatchanged', 'name-rev', 'check-ignore', 'help', 'version', 'count-objects', 'var', 'annotate',
];

/** Global options that take a value (before the subcommand). */
const GLOBAL_VALUED = ['C', 'c', 'git-dir', 'work-tree', 'namespace', 'exec-path', 'config-env'];

function pushFindings(args: readonly Arg[]): Finding[] {
  const split = splitOptions(args, { valued: ['o', 'push-option', 'repo', 'receive-pack', 'exec'] });
  const force = hasFlag(split, 'f', 'force', 'force-with-lease', 'force-if-includes', 'mirror', 'd', 'delete', 'prune');
  const refspecs = split.operands.slice(1).map((arg) => arg.text ?? '');
  const plus = refspecs.find((spec) => spec.startsWith('+') || spec.startsWith(':'));
  const network: Finding = { class: 'network', reason: '`git push` sends commits to a remote' };
  if (force || plus !== undefined) return [network, { class: 'destructive', reason: `\`git push\` ${plus === undefined ? 'with force or delete' : `with refspec ${plus}`} overwrites or deletes the remote's history` }];
  return [network];
}

function destructive(reason: string): Finding[] {
  return [{ class: 'destructive', reason }];
}

function subcommandFindings(sub: string, rest: readonly Arg[], ctx: CommandContext): Finding[] {
  const split = splitOptions(rest, { valued: ['m', 'message', 'b', 'B', 'C', 'c', 'F', 'file', 'u'] });
  const words = rest.map((arg) => arg.text);
  switch (sub) {
    case 'push': return pushFindings(rest);
    case 'reset': return hasFlag(split, 'hard', 'keep', 'merge') ? destructive('`git reset --hard` discards uncommitted work') : [{ class: 'exec', reason: '`git reset` moves the index' }];
    case 'clean': return hasFlag(split, 'n', 'dry-run') ? [{ class: 'read', reason: '`git clean -n` lists untracked files' }] : destructive('`git clean` deletes untracked files');
    case 'branch': return hasFlag(split, 'D') || hasFlag(split, 'd', 'delete') && hasFlag(split, 'f', 'force') ? destructive('`git branch -D` deletes a branch and its unmerged commits') : [{ class: 'exec', reason: '`git branch` lists or creates branches' }];
    case 'checkout': case 'restore': {
      const discards = words.includes('--') || hasFlag(split, 'f', 'force', 'worktree', 'W') || sub === 'restore' && !hasFlag(split, 'staged', 'S') || split.operands.some((arg) => arg.text === '.' || arg.glob);
      return discards ? destructive(`\`git ${sub}\` of paths discards uncommitted changes`) : [{ class: 'exec', reason: `\`git ${sub}\` switches branches` }];
    }
    case 'switch': return hasFlag(split, 'f', 'force', 'discard-changes') ? destructive('`git switch --discard-changes` discards uncommitted changes') : [{ class: 'exec', reason: '`git switch` switches branches' }];
    case 'stash': return ['drop', 'clear'].includes(words[0] ?? '') ? destructive(`\`git stash ${words[0] ?? ''}\` deletes stashed work`) : [{ class: 'exec', reason: '`git stash` saves or lists work' }];
    case 'rm': return hasFlag(split, 'cached') ? [{ class: 'exec', reason: '`git rm --cached` untracks files' }] : split.operands.flatMap((arg) => ctx.path('delete', arg, '`git rm` deletes'));
    case 'filter-branch': case 'filter-repo': case 'gc': case 'prune': case 'update-ref': case 'replace':
      return sub === 'gc' && !words.some((word) => word?.startsWith('--prune') === true) ? [{ class: 'exec', reason: '`git gc` packs the repository' }] : destructive(`\`git ${sub}\` rewrites or drops history`);
    case 'tag': return hasFlag(split, 'd', 'delete') ? destructive('`git tag -d` deletes a tag') : [{ class: 'exec', reason: '`git tag` lists or creates tags' }];
    case 'config': {
      const reads = hasFlag(split, 'get', 'get-all', 'get-regexp', 'list', 'l', 'show-origin') || split.operands.length <= 1 && !hasFlag(split, 'unset', 'unset-all', 'add', 'replace-all', 'edit', 'e');
      return reads ? [{ class: 'read', reason: '`git config` reads a setting' }] : [{ class: 'protected', reason: '`git config` changes the repository\'s configuration (.git/config), where hooks and commands are set' }];
    }
    case 'remote': return ['add', 'set-url', 'rename', 'remove', 'rm', 'set-head', 'set-branches'].includes(words[0] ?? '')
      ? [{ class: 'protected', reason: `\`git remote ${words[0] ?? ''}\` changes the repository's configuration (.git/config)` }]
      : words[0] === 'update' || words[0] === 'prune' ? [{ class: 'network', reason: `\`git remote ${words[0]}\` talks to remotes` }] : [{ class: 'read', reason: '`git remote` lists remotes' }];
    case 'hook': return [{ class: 'exec', reason: '`git hook run` runs a hook' }];
    case 'reflog': return ['expire', 'delete'].includes(words[0] ?? '') ? destructive(`\`git reflog ${words[0] ?? ''}\` drops the record of where branches were, the way back to lost commits`) : [{ class: 'read', reason: '`git reflog` reads the repository' }];
    case 'show': case 'cat-file': {
      // `git show HEAD:.env` prints a committed file: reading it is reading that path
      const blobs = split.operands.flatMap((arg) => (arg.text !== null && /^[^:\s]*:(?!:)./.test(arg.text) && !arg.text.includes('://') ? [arg.text.slice(arg.text.indexOf(':') + 1)] : []));
      const atRoot = ctx.moveTo(ctx.scope.root);
      const secrets = blobs.flatMap((path) => atRoot.path('read', { text: path.replace(/^\.\//, ''), glob: false }, `\`git ${sub}\` prints`)).filter((finding) => finding.class === 'secret');
      return [{ class: 'read', reason: `\`git ${sub}\` reads the repository` }, ...secrets];
    }
    case 'worktree': return words[0] === 'remove' || words[0] === 'prune' ? destructive(`\`git worktree ${words[0]}\` deletes a working tree`) : [{ class: 'exec', reason: '`git worktree` manages working trees' }];
  }
  if (NETWORK.includes(sub)) return [{ class: 'network', reason: `\`git ${sub}\` talks to a remote` }];
  if (READING.includes(sub)) return [{ class: 'read', reason: `\`git ${sub}\` reads the repository` }];
  return [{ class: 'exec', reason: `\`git ${sub}\` changes the repository the way git does` }];
}

/** `git [-C dir] [-c k=v] <subcommand> …`. */
export const runGit: CommandRule = (_name, args, ctx) => {
  const split = splitOptions(args, { valued: GLOBAL_VALUED, stopAtOperand: true });
  const [sub, ...rest] = split.operands;
  const configs = split.values.get('c') ?? [];
  const own: Finding[] = configs.some((arg) => arg.text === null || /^(core\.(hookspath|sshcommand|pager|editor|fsmonitor)|alias\.|.*\.(command|cmd))/i.test(arg.text))
    ? [{ class: 'exec', reason: '`git -c` sets a command git will run' }] : [];
  if (sub === undefined) return [...own, { class: 'read', reason: '`git` prints its help' }];
  if (sub.text === null) return [...own, { class: 'exec', reason: '`git` runs a subcommand known only when it runs' }];
  const dir = split.values.get('C')?.[0];
  const cwd = dir === undefined ? ctx.cwd : dir.text === null || ctx.cwd === null ? null : resolvePath(ctx.cwd, dir.text, ctx.scope.home);
  return [...own, ...subcommandFindings(sub.text, rest, cwd === ctx.cwd ? ctx : ctx.moveTo(cwd))];
};
