// `yoke gate` with no run (an interactive session wired by `yoke retrofit`): the gate rules by
// itself. In a workspace (a `.loop/` at or above the call's directory) it uses the workspace's
// yoke.conf (its boundary, `protect` patterns and `tool` rows) and its workspace-scoped answers;
// anywhere else the shipped table.
import { existsSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Config, Ruling } from '../config/types.js';
import { gateScope } from '../policy/gate/gate-scope.js';
import { readHookRequest } from '../policy/gate/hook-request.js';
import { unreadableRefusal } from '../policy/gate/rule-hook-call.js';
import { trackedFiles } from '../effects/git/tracked-files.js';
import { ruleReadingScripts } from '../store/gate/rule-reading-scripts.js';
import { NO_ANSWERS, type StandingAnswers } from '../policy/ruling/standing-answers.js';
import { gateCallId } from '../policy/gate/gate-call-id.js';
import type { GateAgent } from './gate-output.js';

/** The ruling, its message, and a line for stderr when something could not be read. */
export interface GateRuled {
  ruling: Ruling;
  message: string;
  warning: string | null;
}

/** The nearest folder at or above `dir` holding `.loop/`, or null. */
function workspaceRoot(dir: string): string | null {
  for (let at = dir; ; at = dirname(at)) {
    if (existsSync(join(at, '.loop'))) return at;
    if (dirname(at) === at) return null;
  }
}

/** The workspace's config and answers; on a problem the shipped table, and the problem as a warning. */
async function workspacePolicy(root: string): Promise<{ config: Config | null; answers: StandingAnswers; warning: string | null }> {
  const { workspacePaths } = await import('../store/session/workspace-paths.js');
  const paths = workspacePaths(root);
  let config: Config | null = null;
  let warning: string | null = null;
  if (existsSync(paths.conf)) {
    try {
      const { loadConfig } = await import('./load-config.js');
      config = loadConfig(paths, () => undefined);
    } catch (error) {
      warning = `yoke gate: ${paths.conf} could not be read (${error instanceof Error ? error.message : String(error)}); ruling by the shipped table.`;
    }
  }
  let answers = NO_ANSWERS;
  if (existsSync(paths.journal)) {
    try {
      const [{ readWorkspace }, { answerEvents }, { standingAnswers }] = await Promise.all([
        import('../store/session/read-workspace.js'), import('../store/gate/tool-records.js'), import('../policy/ruling/standing-answers.js'),
      ]);
      const read = await readWorkspace(paths);
      // Without a run only workspace-wide answers stand (run answers belong to their runs).
      answers = standingAnswers(answerEvents(read.records).filter((event) => event.kind === 'revoke' || event.answer.scope === 'workspace'));
    } catch (error) {
      warning = `yoke gate: the journal could not be read (${error instanceof Error ? error.message : String(error)}); no answers stand.`;
    }
  }
  return { config, answers, warning };
}

/** The workspace's `protect` patterns, `auto` expanded against the files it has now. */
async function protectPatterns(config: Config, root: string): Promise<string[]> {
  if ((config.protect ?? []).length === 0) return [];
  const { resolveProtectPatterns } = await import('../machines/protect/auto-protect.js');
  return resolveProtectPatterns(config, (path) => statSync(join(root, path), { throwIfNoEntry: false })?.isFile() ?? false);
}

/** Rule on a hook request with no run. Unreadable: refused, with the reason on stderr. */
export async function ruleWithoutRun(agent: GateAgent, text: string, cwd: string): Promise<GateRuled> {
  const read = readHookRequest(text);
  if (!read.ok) return { ruling: 'refuse', message: unreadableRefusal(read.problem), warning: `yoke gate: ${read.problem}; the call is refused (fail closed).` };
  const { request } = read;
  const dir = request.cwd ?? cwd;
  const root = workspaceRoot(dir);
  const policy = root === null ? { config: null, answers: NO_ANSWERS, warning: null } : await workspacePolicy(root);
  const protect = root === null || policy.config === null ? [] : await protectPatterns(policy.config, root);
  const tracked = root === null ? null : await trackedFiles(root);
  const scope = gateScope(root ?? dir, dir, policy.config, homedir(), protect, tracked);
  const callId = gateCallId(request.toolUseId, request.tool, request.input);
  const { ruling } = ruleReadingScripts({ agent, tool: request.tool, input: request.input, callId, runId: '' }, scope, policy.config?.toolRules, policy.answers);
  return { ruling: ruling.ruling, message: ruling.message, warning: policy.warning };
}
