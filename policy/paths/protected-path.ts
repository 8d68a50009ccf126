// Which writes are protected (DESIGN §13): yoke's own files, the agents' settings and hooks, `.git/`
// and husky's git hooks (`.husky/`), the boundary's `no-modify` and `protect` paths, and anything
// outside the project.
import { classifyPath } from '../../machines/boundary.js';
import { isGlob, patternBase, patternCovers } from '../../machines/protect/protect-pattern.js';
import { AGENT_FACING_LOOP_FILES, type ToolScope } from '../tool-scope.js';
import { normalizeAbsolute, projectRelative } from './resolve-path.js';

/** Why a path is protected. `control` paths steer yoke or an agent; the others are the run's boundary. */
export type ProtectionKind = 'control' | 'boundary' | 'outside';

/** A protected path and why, in words. */
export interface Protection {
  kind: ProtectionKind;
  reason: string;
}

/** Devices a write to which changes no file. */
const HARMLESS_DEVICES = ['/dev/null', '/dev/stdout', '/dev/stderr', '/dev/tty', '/dev/zero'];

/** Agent configuration folders protected whole (settings, hooks, MCP servers, memory). */
const AGENT_DIRS = ['.codex', '.gemini', '.qwen', '.opencode', '.claude/hooks'];

/** Agent configuration files at the project root. */
const AGENT_FILES = ['.mcp.json', 'opencode.json', 'opencode.jsonc'];

/** Whether `abs` is a device whose writes touch no file (`/dev/null`, `/dev/fd/2`, …). */
export function isHarmlessDevice(abs: string): boolean {
  return HARMLESS_DEVICES.includes(abs) || /^\/dev\/fd\/\d+$/.test(abs);
}

function under(rel: string, dir: string): boolean {
  return rel === dir || rel.startsWith(`${dir}/`);
}

/** Why a project-relative path steers yoke or an agent, or null. */
function controlReason(rel: string, scope: ToolScope): string | null {
  if (under(rel, '.git')) return `${rel} is inside .git/ (the repository, its config and hooks)`;
  if (under(rel, '.husky')) return `${rel} is a git hook (.husky/ is where husky keeps the repository's hooks)`;
  if (/^\.claude\/settings[^/]*\.json$/.test(rel)) return `${rel} is Claude Code's settings`;
  const agentDir = AGENT_DIRS.find((dir) => under(rel, dir));
  if (agentDir !== undefined) return `${rel} is an agent's own settings or hooks (${agentDir}/)`;
  if (AGENT_FILES.includes(rel)) return `${rel} is an agent's own settings`;
  if (under(rel, '.loop')) {
    const inside = rel.slice('.loop/'.length);
    if (under(inside, '.journal') || under(inside, '.stash')) return `${rel} is yoke's journal or stash`;
    if (scope.specFiles.includes(inside)) return `${rel} is a spec file of the run`;
    if ((AGENT_FACING_LOOP_FILES as readonly string[]).includes(inside)) return null;
    return rel === '.loop' ? '.loop/ is yoke\'s working folder' : `${rel} is written by yoke, not by agents`;
  }
  if (under(rel, '.yoke') && rel !== '.yoke/context/KNOWLEDGE.md') return `${rel} is yoke's project state (.yoke/)`;
  const shared = (scope.shared ?? []).find((dir) => under(rel, dir));
  if (shared !== undefined) return `${rel} is in ${shared}/, the main working tree's own linked into this lane (a change there changes every lane's)`;
  return null;
}

/** Why a project-relative path is outside the run's boundary (`no-modify`, `allow`, `protect`), or null. */
function boundaryReason(rel: string, scope: ToolScope): string | null {
  if (rel.startsWith('.loop/') || rel === '.loop') return null;
  // as the protection scan matches them (DESIGN §16)
  const pattern = scope.protect.find((candidate) => patternCovers(candidate, rel));
  if (pattern !== undefined) return `${rel} is protected by \`protect ${pattern}\``;
  if (rel === '.') return scope.allow.length > 0 || scope.noModify.length > 0 ? 'the whole project is wider than the boundary' : null;
  const verdict = classifyPath(rel, scope.allow, scope.noModify);
  if (verdict.allowed) return null;
  return verdict.rule === null ? `${rel} is outside every \`allow\` prefix` : `${rel} is protected by \`no-modify ${verdict.rule}\``;
}

/**
 * Why writing the absolute path `abs` is protected, or null when the write is a plain edit.
 * @example protectionOf('/p/.claude/settings.json', scope)?.kind // 'control'
 */
export function protectionOf(abs: string, scope: ToolScope): Protection | null {
  if (isHarmlessDevice(abs)) return null;
  const rel = projectRelative(abs, normalizeAbsolute(scope.root));
  if (rel === null) {
    const scratch = (scope.scratch ?? []).find((prefix) => projectRelative(abs, normalizeAbsolute(prefix)) !== null);
    return scratch === undefined ? { kind: 'outside', reason: `${abs} is outside the project` } : null;
  }
  const control = controlReason(rel, scope);
  if (control !== null) return { kind: 'control', reason: control };
  const boundary = boundaryReason(rel, scope);
  return boundary === null ? null : { kind: 'boundary', reason: boundary };
}

/**
 * Project-relative paths that stand for every protected place, for asking whether a glob could
 * reach one: folders end with `/` (anything under them), files do not.
 */
export function protectedWitnesses(scope: ToolScope): string[] {
  return [
    '.git/', '.husky/', '.claude/settings.json', '.claude/settings.local.json', '.claude/hooks/', ...AGENT_DIRS.map((dir) => `${dir}/`), ...AGENT_FILES,
    '.loop/.journal/', '.loop/.stash/', '.yoke/', ...scope.specFiles.map((file) => `.loop/${file}`), ...scope.noModify,
    ...(scope.shared ?? []).map((dir) => `${dir}/`),
    // a protect glob stands for the folder it starts from (a glob write there may match it)
    ...scope.protect.map((pattern) => (isGlob(pattern) ? `${patternBase(pattern)}/` : pattern)).filter((witness) => witness !== '/'),
  ];
}
