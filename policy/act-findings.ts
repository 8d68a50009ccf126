// The findings of one act of a tool call: shell commands are parsed, paths judged against the scope.
import type { Finding } from './classification.js';
import { pathFindings } from './paths/path-findings.js';
import { hasGlob } from './paths/glob-pattern.js';
import { normalizeAbsolute, projectRelative, resolvePath } from './paths/resolve-path.js';
import { classifyShell } from './shell/classify-shell.js';
import type { ToolAct } from './tool-act.js';
import type { ToolScope } from './tool-scope.js';

function target(path: string | null): { text: string | null; glob: boolean } {
  return { text: path, glob: false };
}

/** Whether a search tool's folder is under `.loop/`, where yoke's journal and run token live. */
function underLoop(path: string, scope: ToolScope): boolean {
  const rel = projectRelative(resolvePath(scope.cwd, path, scope.home), normalizeAbsolute(scope.root));
  return rel !== null && (rel === '.loop' || rel.startsWith('.loop/'));
}

function searchFindings(act: ToolAct & { kind: 'search' }, tool: string, scope: ToolScope): Finding[] {
  const origin = { cwd: scope.cwd, scope, doing: `${tool} ${act.contents ? 'searches' : 'lists'}` };
  // search tools skip git-ignored files, but a folder named under .loop/ is searched as named: its token with it
  const where = act.path === null ? [] : pathFindings(act.contents && underLoop(act.path, scope) ? 'search' : 'read', target(act.path), origin);
  if (act.pattern === null) return where.length > 0 ? where : [{ class: 'read', reason: `${origin.doing} the project` }];
  const base = act.path === null ? scope.cwd : resolvePath(scope.cwd, act.path, scope.home);
  const pattern = pathFindings('read', { text: act.pattern, glob: hasGlob(act.pattern) }, { ...origin, cwd: base });
  return [...where, ...(act.contents ? pattern : pattern.map((finding) => (finding.class === 'secret' ? { ...finding, class: 'read' as const } : finding)))];
}

/**
 * The findings of one act of the tool `tool`.
 * @example actFindings({ kind: 'write', path: '/p/.git/config' }, 'Write', scope) // [{ class: 'protected', … }]
 */
export function actFindings(act: ToolAct, tool: string, scope: ToolScope): Finding[] {
  const origin = { cwd: scope.cwd, scope, doing: `${tool} ${act.kind === 'write' ? 'writes' : act.kind === 'delete' ? 'deletes' : 'reads'}` };
  switch (act.kind) {
    case 'shell': {
      if (act.command === null) return [{ class: 'exec', reason: `${tool} has no command yoke can read` }];
      const cwd = act.cwd === undefined ? scope.cwd : resolvePath(scope.cwd, act.cwd, scope.home);
      return classifyShell(act.command, scope, cwd);
    }
    case 'write':
      if (act.path === null) return [{ class: 'protected', reason: `${tool} writes a file it does not name` }];
      // a write of nothing empties the file: a truncation (destructive for a tracked file)
      return act.empties === true ? pathFindings('truncate', target(act.path), { ...origin, doing: `${tool} empties` }) : pathFindings('write', target(act.path), origin);
    case 'delete': return pathFindings('delete', target(act.path), origin);
    case 'read': return pathFindings('read', target(act.path), origin);
    case 'search': return searchFindings(act, tool, scope);
    case 'network': return [{ class: 'network', reason: `${tool} ${act.what}` }];
    case 'internal': return [{ class: 'read', reason: act.what }];
    case 'delegate': return [{ class: 'exec', reason: `${tool} ${act.what}` }];
    case 'unknown': return [{ class: 'exec', reason: `${act.what}, so it counts as exec` }];
  }
}
