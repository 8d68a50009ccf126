// The canon rendered for a set of agents: every path the retrofit generates and what it holds.
import type { Canon } from './canon.js';
import { claudeGateParts, codexGateTable, geminiGatePart } from './gate-wiring.js';
import { renderGeminiCommand } from './gemini-command.js';
import type { JsonPart } from './json-parts.js';
import type { RetrofitArtifact } from './retrofit-artifact.js';
import type { ArtifactKind, RetrofitAgent } from './retrofit-agents.js';

/** Where each agent discovers skills: Claude Code in .claude/skills/; Codex and Gemini CLI both read .agents/skills/. */
export const SKILL_ROOTS: { readonly [A in RetrofitAgent]: string } = {
  claude: '.claude/skills',
  codex: '.agents/skills',
  gemini: '.agents/skills',
};

/** A name inside a generated path (a skill, a policy or context file): no separator, never `.` or `..`. */
const NAME = '[A-Za-z0-9][A-Za-z0-9._-]*';

/**
 * The shape of every path `retrofitArtifacts` can produce, for any canon and agents: what a lock may
 * name. A path of another shape (absolute, `..`, `.git/`, a user's file) is never yoke's to touch.
 */
const GENERATED_SHAPES: readonly RegExp[] = [
  /^AGENTS\.md$/, /^CLAUDE\.md$/,
  new RegExp(`^(?:${Object.values(SKILL_ROOTS).map((root) => root.replace('.', '\\.')).join('|')})/${NAME}/SKILL\\.md$`),
  new RegExp(`^\\.gemini/commands/yoke/${NAME}\\.toml$`),
  /^\.claude\/settings\.json$/, /^\.gemini\/settings\.json$/, /^\.codex\/config\.toml$/,
  new RegExp(`^\\.yoke/(?:policy|context)/${NAME}$`),
  /^\.yoke\/\.gitignore$/,
];

/** Can `retrofitArtifacts` generate `path` (for some canon and some agents)? */
export function isGeneratedPath(path: string): boolean {
  return !path.split('/').some((segment) => segment === '..' || segment === '.') && GENERATED_SHAPES.some((shape) => shape.test(path));
}

/** A line that already imports AGENTS.md into CLAUDE.md (`@AGENTS.md` or `@./AGENTS.md`). */
const IMPORTS_AGENTS_MD = /^@(\.\/)?AGENTS\.md\s*$/m;

function gets(canon: Canon, agent: RetrofitAgent, kind: ArtifactKind): boolean {
  return canon.agents[agent]?.includes(kind) ?? false;
}

/** Every artifact for `agents`, in a stable order, one per path (agents sharing a path are merged). */
export function retrofitArtifacts(canon: Canon, agents: readonly RetrofitAgent[]): RetrofitArtifact[] {
  const out = new Map<string, RetrofitArtifact>();
  const add = (artifact: RetrofitArtifact): void => {
    const existing = out.get(artifact.path);
    if (existing === undefined) out.set(artifact.path, artifact);
    else if (existing.kind === 'json' && artifact.kind === 'json') out.set(artifact.path, { ...existing, parts: [...existing.parts, ...artifact.parts], agents: union(existing.agents, artifact.agents), reason: `${existing.reason}; ${artifact.reason}` });
    else out.set(artifact.path, { ...existing, agents: union(existing.agents, artifact.agents) });
  };
  const readers = agents.filter((agent) => gets(canon, agent, 'instructions'));
  if (readers.length > 0) add({ kind: 'block', path: 'AGENTS.md', style: 'markdown', body: canon.instructions, agents: readers, reason: 'the canon baseline (how to work, Stop-the-Line, roles, skill routing)' });

  for (const agent of agents) {
    if (gets(canon, agent, 'instructions')) {
      switch (agent) {
        case 'claude':
          add({ kind: 'block', path: 'CLAUDE.md', style: 'markdown', body: '@AGENTS.md', satisfiedBy: IMPORTS_AGENTS_MD, agents: [agent], reason: 'Claude Code reads CLAUDE.md; `@AGENTS.md` imports the baseline' });
          break;
        case 'codex':
          break;
        case 'gemini': {
          const part: JsonPart = { kind: 'member', at: ['context', 'fileName'], value: 'AGENTS.md', absent: ['AGENTS.md', 'GEMINI.md'] };
          add({ kind: 'json', path: '.gemini/settings.json', dialect: 'jsonc', parts: [part], agents: [agent], reason: 'context.fileName makes Gemini CLI read AGENTS.md (GEMINI.md stays)' });
          break;
        }
      }
    }
    if (gets(canon, agent, 'skills')) {
      for (const skill of canon.skills) add({ kind: 'file', path: `${SKILL_ROOTS[agent]}/${skill.name}/SKILL.md`, content: skill.text, agents: [agent], reason: `skill ${skill.name}` });
    }
    if (gets(canon, agent, 'commands') && agent === 'gemini') {
      for (const skill of canon.skills) add({ kind: 'file', path: `.gemini/commands/yoke/${skill.name}.toml`, content: renderGeminiCommand(skill), agents: [agent], reason: `/yoke:${skill.name} runs skill ${skill.name}` });
    }
    if (gets(canon, agent, 'gate')) {
      switch (agent) {
        case 'claude':
          add({ kind: 'json', path: '.claude/settings.json', dialect: 'json', parts: claudeGateParts(), agents: [agent], reason: 'PreToolUse and PreSkillShellCommand hooks run `yoke gate --agent claude`' });
          break;
        case 'codex':
          add({ kind: 'toml', path: '.codex/config.toml', value: codexGateTable(), agents: [agent], reason: 'a PreToolUse hook runs `yoke gate --agent codex` (once the project and the hook are trusted)' });
          break;
        case 'gemini':
          add({ kind: 'json', path: '.gemini/settings.json', dialect: 'jsonc', parts: [geminiGatePart()], agents: [agent], reason: 'a BeforeTool hook runs `yoke gate --agent gemini`' });
          break;
      }
    }
  }
  if (agents.length > 0) {
    for (const policy of canon.policy) add({ kind: 'file', path: `.yoke/policy/${policy.name}`, content: policy.text, agents: [], reason: `policy ${policy.name}, which AGENTS.md points to` });
    for (const context of canon.context) add({ kind: 'seed', path: `.yoke/context/${context.name}`, content: context.text, agents: [], reason: `context template ${context.name} (yours to fill in; never overwritten)` });
    add({ kind: 'block', path: '.yoke/.gitignore', style: 'hash', body: 'backup/', agents: [], reason: 'keeps retrofit backups out of git (yoke never edits your .gitignore)' });
  }
  return [...out.values()];
}

function union<T>(a: T[], b: T[]): T[] {
  return [...a, ...b.filter((item) => !a.includes(item))];
}
