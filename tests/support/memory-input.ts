// Inputs for runs in a MemoryWorld: a parsed loop config and the input `yoke run` would journal.
import { parseConfig } from '../../config/parse-config.js';
import type { LoopInput } from '../../machines/lifecycles/loop.js';
import { LIFECYCLE_REGISTRY } from '../../machines/lifecycles/registry.js';

/** A loop input from yoke.conf lines after `mode loop` and an agent line; throws on any config issue. */
export function memoryLoopInput(lines: readonly string[]): LoopInput {
  const { config, issues } = parseConfig(`${['mode loop', 'agent cmd ./agent.sh', ...lines].join('\n')}\n`, '.loop/yoke.conf', LIFECYCLE_REGISTRY);
  if (config === null || issues.length > 0) throw new Error(`test config does not parse: ${JSON.stringify(issues)}`);
  return { config, workerPrompt: 'Iteration {{iteration}} of {{maxIterations}} in {{loopDir}}.', loopDir: '/project/.loop', specFiles: ['plan.md', 'protocol.md', 'yoke.conf'] };
}
