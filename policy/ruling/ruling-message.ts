// The sentence a ruling hands the model (and the operator): what was decided, about which calls,
// by whom, and why this call falls under it. A refusal names its reach, so the model can tell that
// another spelling of the same act is covered too.
import type { Ruling, ToolClass } from '../../config/types.js';
import type { RulingSource } from './ruling-source.js';

/**
 * What the decision covers: "this one call" or "every Bash call classified destructive in this run"
 * (without a run, an interactive session: no run is named).
 */
export function rulingReach(tool: string, toolClass: ToolClass, source: RulingSource, inRun = true): string {
  if (source.kind === 'answer' && source.scope === 'call') return 'this one call';
  const where = source.kind === 'answer' && source.scope === 'workspace' ? ' in this workspace' : inRun ? ' in this run' : '';
  return `every ${tool} call classified ${toolClass}${where}`;
}

function decider(toolClass: ToolClass, ruling: Ruling, source: RulingSource): string {
  switch (source.kind) {
    case 'table': return `yoke's tool policy (the shipped rule for ${toolClass} calls)`;
    case 'conf': return `yoke's tool policy (\`tool ${toolClass} ${ruling}\` on line ${source.line} of .loop/yoke.conf)`;
    case 'answer': return `the operator (answer ${source.id}, scope ${source.scope})`;
  }
}

const VERB: { readonly [R in Ruling]: string } = { pass: 'passed', hold: 'held', refuse: 'refused' };

/**
 * The message of a ruling on one call.
 * @example rulingMessage('refuse', 'Bash', 'destructive', { kind: 'table' }, '`rm -r` deletes keep/')
 * // 'refused: every Bash call classified destructive in this run is refused by yoke's tool policy (…). …'
 */
export function rulingMessage(ruling: Ruling, tool: string, toolClass: ToolClass, source: RulingSource, why: string, inRun = true): string {
  const reach = rulingReach(tool, toolClass, source, inRun);
  const head = `${VERB[ruling]}: ${reach} is ${VERB[ruling]} by ${decider(toolClass, ruling, source)}.`;
  const call = ` This call is ${toolClass}: ${why}.`;
  switch (ruling) {
    case 'pass': return head + call;
    case 'hold': return `${head}${call} It waits for the operator, and runs only if they answer pass.`;
    case 'refuse': return reach === 'this one call'
      ? `${head}${call} Do not retry it in another form.`
      : `${head}${call} Doing the same another way (another command, other quoting, a script or an interpreter) is classified ${toolClass} too and refused the same; do not retry it in another form.`;
  }
}
