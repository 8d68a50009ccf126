// Which tool calls a CLI ran without a ruling that let them through (DESIGN §13): the executed
// calls its adapter read from its output, matched against the gate's rulings in the same agent
// call. Pure, so the run (when the call ends) and `yoke replay --verify` (from the journal) decide
// alike.
import type { ExecutedToolCall } from '../../machines/effects.js';
import { normalizeToolCall } from '../normalize/normalize-tool-call.js';
import { normalizeAbsolute, resolvePath } from '../paths/resolve-path.js';
import { isPolicyAgent } from '../tool-act.js';
import type { ToolScope } from '../tool-scope.js';

/** One ruling the gate journaled during the agent call, with the request it ruled on. */
export interface CallRuling {
  agent: string;
  callId: string;
  tool: string | null;
  input: unknown;
  scope: ToolScope | null;
  /** the CLI was told to let the call run: a pass, or any ruling under `tool-control advisory` */
  letThrough: boolean;
}

/**
 * The executed calls that no ruling letting a call through accounts for, in order. A call matched
 * by its key or its command takes one such ruling each (every execution asked the gate once); a
 * patch's files must each be written by a patch the gate let through.
 * @example unruledCalls([{ tool: 'Bash', match: { by: 'callId', callId: 't1' }, summary: 'Bash rm -r keep' }], []).length // 1
 */
export function unruledCalls(executed: readonly ExecutedToolCall[], rulings: readonly CallRuling[]): ExecutedToolCall[] {
  const passed = rulings.filter((ruling) => ruling.letThrough);
  const used = new Set<number>();
  const take = (test: (ruling: CallRuling) => boolean): boolean => {
    const index = passed.findIndex((ruling, at) => !used.has(at) && test(ruling));
    if (index < 0) return false;
    used.add(index);
    return true;
  };
  return executed.filter((call) => {
    const { match } = call;
    switch (match.by) {
      case 'callId': return !take((ruling) => ruling.callId === match.callId);
      case 'command': return !take((ruling) => shellCommands(ruling).includes(match.command));
      case 'paths': {
        const written = new Set(passed.flatMap(patchedFiles));
        return match.paths.length === 0 || !match.paths.every((path) => written.has(normalizeAbsolute(path)));
      }
    }
  });
}

/** The shell command text(s) a ruled request runs. */
function shellCommands(ruling: CallRuling): string[] {
  if (ruling.tool === null || !isPolicyAgent(ruling.agent)) return [];
  return normalizeToolCall(ruling.agent, ruling.tool, ruling.input).flatMap((act) => (act.kind === 'shell' && act.command !== null ? [act.command] : []));
}

/** The absolute paths a ruled patch adds, changes, moves to or deletes. */
function patchedFiles(ruling: CallRuling): string[] {
  if (ruling.tool === null || ruling.scope === null || !isPolicyAgent(ruling.agent)) return [];
  const { cwd, home } = ruling.scope;
  return normalizeToolCall(ruling.agent, ruling.tool, ruling.input)
    .flatMap((act) => ((act.kind === 'write' || act.kind === 'delete') && act.path !== null ? [resolvePath(cwd, act.path, home)] : []));
}
