// Inputs for the judged lifecycles (brute, saga) in pure machine tests: a config in a given mode,
// fixed prompt templates, and the spec files of that mode.
import { parseConfig } from '../../../config/parse-config.js';
import type { Config } from '../../../config/types.js';
import type { WorkInput } from '../../../machines/work/work-context.js';
import { LOOP_DIR, WORKER_PROMPT } from './loop-driver.js';
import { LIFECYCLE_REGISTRY } from '../../../machines/lifecycles/registry.js';

/** The judge and scoper templates every judged test input uses (the real ones live in canon/prompts/). */
export const JUDGE_PROMPT = 'Judge iteration {{iteration}}; loop folder {{loopDir}}.';
export const SCOPER_PROMPT = 'Scope chunk {{chunk}} of at most {{maxChunks}}; loop folder {{loopDir}}.';

/** A parsed config of `mode` from `lines` (plus a `cmd` agent); throws on any issue, warnings included. */
export function makeModeConfig(mode: 'loop' | 'brute' | 'saga', lines: readonly string[]): Config {
  const { config, issues } = parseConfig(`${[`mode ${mode}`, 'agent cmd ./fake-agent.sh', ...lines].join('\n')}\n`, '.loop/yoke.conf', LIFECYCLE_REGISTRY);
  if (config === null || issues.length > 0) {
    throw new Error(`test config does not parse cleanly:\n${issues.map((i) => `${i.line}:${i.column} ${i.message}`).join('\n')}`);
  }
  return config;
}

/** A brute or saga input around `config`. */
export function makeJudgedInput(config: Config): WorkInput {
  const saga = config.mode === 'saga';
  return {
    config,
    workerPrompt: WORKER_PROMPT,
    judgePrompt: JUDGE_PROMPT,
    ...(saga ? { scoperPrompt: SCOPER_PROMPT } : {}),
    loopDir: LOOP_DIR,
    specFiles: saga ? ['protocol.md', 'specification.md', 'judge.md', 'yoke.conf'] : ['protocol.md', 'plan.md', 'judge.md', 'yoke.conf'],
  };
}
