// A stories run's input for the graph models (the real yoke.conf and prd.yaml parsers), and the graph identity of a stories snapshot.
import type { AnyMachineSnapshot } from 'xstate';
import { parsePrd } from '../../../config/prd/parse-prd.js';
import { parseConfig } from '../../../config/parse-config.js';
import { LIFECYCLE_REGISTRY } from '../../../machines/lifecycles/registry.js';
import type { WorkContext, WorkInput } from '../../../machines/work/work-context.js';
import { JUDGE_PROMPT } from './judged-input.js';
import { LOOP_DIR, WORKER_PROMPT } from './loop-driver.js';
import { serializeWork } from './work-graph.js';

/** A stories run's input: yoke.conf lines after `mode stories` and the agent, and prd.yaml's text (parsed by the real parser). */
export function storiesInput(lines: readonly string[], prd: string): WorkInput {
  const { config, issues } = parseConfig(`${['mode stories', 'agent cmd ./fake-agent.sh', ...lines].join('\n')}\n`, '.loop/yoke.conf', LIFECYCLE_REGISTRY);
  if (config === null || issues.length > 0) throw new Error(`stories test config does not parse: ${JSON.stringify(issues)}`);
  const parsed = parsePrd(prd, '.loop/prd.yaml');
  if (parsed.stories === null || parsed.issues.length > 0) throw new Error(`test prd.yaml does not parse: ${JSON.stringify(parsed.issues)}`);
  return {
    config, workerPrompt: WORKER_PROMPT, judgePrompt: JUDGE_PROMPT, loopDir: LOOP_DIR,
    specFiles: ['protocol.md', 'prd.yaml', 'judge.md', 'yoke.conf'], stories: parsed.stories,
  };
}

/**
 * serializeWork plus what the stories guards read: each story's passed / attempts / blocked /
 * failure streak, the current story, how many criteria each story has (a fixed prd.yaml is a new state),
 * and a spec restore owed again after an edit.
 */
export function serializeStories(snapshot: AnyMachineSnapshot): string {
  const c = snapshot.context as WorkContext;
  const prd = c.prd;
  const stories = prd ? Object.entries(prd.progress).map(([id, p]) => [id, p.passed, p.attempts, p.blocked, p.fingerprintRepeats, p.lastFingerprint]) : [];
  // a restore owed again after an edit of prd.yaml (in runs that restore after calls) is a state of its own
  return JSON.stringify([serializeWork(snapshot), prd?.current ?? null, stories, prd?.stories.map((s) => [s.id, s.acceptance?.length ?? 0]) ?? [], ...(c.restoreAgain === true ? ['restoreAgain'] : [])]);
}
