// Reads `agent`, `judge-agent` and `scoper-agent`: a built-in adapter or `cmd <command>`.
import { withSuggestion } from './closest-match.js';
import { endColumn, restOfLine } from './config-line.js';
import { reportAt, reportExtra, reportMissing, type DirectiveContext } from './directive-context.js';
import type { Token } from './config-line.js';
import { BUILT_IN_AGENT_KINDS, type AgentSpec } from './types.js';

const KINDS = [...BUILT_IN_AGENT_KINDS, 'cmd'];

function isBuiltIn(kind: string): kind is (typeof BUILT_IN_AGENT_KINDS)[number] {
  return (BUILT_IN_AGENT_KINDS as readonly string[]).includes(kind);
}

/**
 * The agent spec written on this line from token `at` on (1: right after the directive), or null
 * (with the problem reported). `profiles`: the line may name a profile instead, so an unknown word
 * is not reported here but handed back as `{ profile }` to be resolved once the file is read.
 */
export function readAgentSpec(ctx: DirectiveContext, at = 1, profiles = false): AgentSpec | { profile: Token } | null {
  const kind = ctx.line.tokens[at];
  if (kind === undefined) {
    reportMissing(ctx, ctx.spec.args.length - 1);
    return null;
  }
  if (kind.text === 'cmd') {
    const command = restOfLine(ctx.line, at + 1);
    if (command !== '') return { kind: 'cmd', command };
    ctx.issues.error(ctx.line.number, endColumn(ctx.line), `\`${ctx.name} cmd\` is missing its command`, `write the command after cmd, like \`${ctx.name} cmd ./my-agent.sh\``);
    return null;
  }
  if (!isBuiltIn(kind.text) && profiles && ctx.line.tokens[at + 1] === undefined) return { profile: kind };
  if (!isBuiltIn(kind.text)) {
    const hint = `use ${BUILT_IN_AGENT_KINDS.join(', ')}, or \`${ctx.name} cmd <command>\` for any other CLI`;
    reportAt(ctx, kind, { message: `\`${kind.text}\` is not a known agent`, hint: withSuggestion(hint, kind.text, KINDS) });
    return null;
  }
  const extra = ctx.line.tokens[at + 1];
  if (extra !== undefined) {
    reportExtra(ctx, extra, at);
    return null;
  }
  return { kind: kind.text };
}
