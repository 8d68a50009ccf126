// Which agent `yoke init` (and `yoke mode`, for a workspace without one) writes, and why.
import { BUILT_IN_AGENT_KINDS } from '../config/types.js';
import { findOnPath } from '../effects/adapters/agent-availability.js';
import { BUILT_IN_AGENTS, type BuiltInAgentKind } from '../effects/adapters/built-in-agents.js';
import { firstInstalledAgent } from '../effects/adapters/first-installed-agent.js';
import { YokeError } from '../errors/yoke-error.js';
import type { AgentLines } from './template-agent.js';

/** The agent chosen, how, and the sentence that tells the user. */
export interface InitAgentChoice {
  lines: AgentLines;
  /** `flag`: --agent; `found`: first on PATH; `default`: none on PATH, so claude; `kept`: the workspace's own */
  how: 'flag' | 'found' | 'default' | 'kept';
  /** the CLI's binary on PATH, when found */
  path: string | null;
  message: string;
}

const ORDER = BUILT_IN_AGENT_KINDS.join(', ');

function isBuiltIn(name: string): name is BuiltInAgentKind {
  return (BUILT_IN_AGENT_KINDS as readonly string[]).includes(name);
}

function installHint(kind: BuiltInAgentKind): string {
  const cli = BUILT_IN_AGENTS[kind];
  return `npm install -g ${cli.npmPackage}@${cli.testedVersion}`;
}

/**
 * `--agent <name>` when given (a usage error unless it names a built-in agent), else the first
 * built-in CLI on `pathVariable`, else `agent claude` with how to install it.
 */
export function chooseInitAgent(flag: string | undefined, pathVariable: string): InitAgentChoice {
  if (flag !== undefined) {
    if (!isBuiltIn(flag)) {
      const hint = flag === 'cmd' ? ' For another tool, write `agent cmd <command>` in .loop/yoke.conf after `yoke init`.' : '';
      throw new YokeError('usage', `--agent ${flag} is not a built-in agent; use one of: ${ORDER}.${hint} Nothing was written.`);
    }
    const path = findOnPath(BUILT_IN_AGENTS[flag].binary, pathVariable);
    const where = path === null ? `, but \`${BUILT_IN_AGENTS[flag].binary}\` is not on PATH: install it with \`${installHint(flag)}\` before \`yoke run\`` : `, found at ${path}`;
    return { lines: { agent: `agent ${flag}`, model: null }, how: 'flag', path, message: `Agent: ${flag} (--agent)${where}.` };
  }
  const found = firstInstalledAgent(pathVariable);
  if (found !== null) {
    return {
      lines: { agent: `agent ${found.kind}`, model: null }, how: 'found', path: found.path,
      message: `Agent: ${found.kind}, the first agent CLI found on PATH (${found.path}; looked for ${ORDER}, in that order). \`--agent <name>\` picks another.`,
    };
  }
  return {
    lines: { agent: 'agent claude', model: null }, how: 'default', path: null,
    message: `Agent: claude, the default: no agent CLI is on PATH (looked for ${ORDER}). Install Claude Code with \`${installHint('claude')}\`, or write \`agent cmd <command>\` in .loop/yoke.conf to run another tool.`,
  };
}

/** The workspace's own agent lines, kept across `yoke mode`. */
export function keptAgent(lines: AgentLines): InitAgentChoice {
  const model = lines.model === null ? '' : ` and \`${lines.model}\``;
  return { lines, how: 'kept', path: null, message: `Agent: kept \`${lines.agent}\`${model} from the previous yoke.conf.` };
}
