// Reading and validating every journey's flow file, and capturing the fill values it reads from
// the environment, all before the browser starts (a bad flow or a missing variable: exit 2).
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { FLOW_LIMITS, type Flow } from '../../config/flow/flow-schema.js';
import { parseFlow } from '../../config/flow/parse-flow.js';
import { formatIssue } from '../../config/format-issue.js';
import type { CheckRefusal } from '../../machines/acceptance/acceptance-check.js';

/** A flow file is configuration: anything larger is not one. */
const MAX_FLOW_BYTES = 1024 * 1024;

/** One journey ready to run. */
export interface LoadedJourney {
  name: string;
  /** project-relative flow file */
  file: string;
  flow: Flow;
  /** SHA-256 of the flow file's bytes */
  sha256: string;
}

/** Every journey, the environment values its fills read, and every fill value (to redact). */
export interface LoadedFlows {
  journeys: LoadedJourney[];
  env: Map<string, string>;
  secrets: string[];
}

/** Why the flows cannot run: a sentence, and every issue after it. */
export interface FlowProblem {
  reason: Extract<CheckRefusal, 'flow-invalid' | 'env-missing'>;
  message: string;
  details: string[];
}

/** Load `journeys` from the project at `root`, reading `value-env` values from `env` once. */
export async function loadJourneyFlows(root: string, journeys: readonly { name: string; flow: string }[], env: NodeJS.ProcessEnv): Promise<LoadedFlows | FlowProblem> {
  const loaded: LoadedJourney[] = [];
  const problems: string[] = [];
  for (const journey of journeys) {
    const bytes = await readFlowFile(root, journey.flow);
    if (typeof bytes === 'string') {
      problems.push(`${journey.flow}: the flow file of journey \`${journey.name}\` ${bytes}`);
      continue;
    }
    const { flow, issues } = parseFlow(bytes.toString('utf8'), journey.flow);
    if (flow === null) problems.push(...issues.map(formatIssue));
    else loaded.push({ name: journey.name, file: journey.flow, flow, sha256: createHash('sha256').update(bytes).digest('hex') });
  }
  const [first, ...rest] = problems;
  if (first !== undefined) return { reason: 'flow-invalid', message: first, details: [...rest, `${problems.length} problem(s) in flow files; nothing was run and the earlier evidence was kept.`] };
  return captureFills(loaded, env);
}

async function readFlowFile(root: string, file: string): Promise<Buffer | string> {
  const path = join(root, file);
  const stats = await stat(path).catch(() => null);
  if (stats === null) return 'does not exist; create it or fix the `journey` line in .loop/yoke.conf';
  if (!stats.isFile()) return 'is not a file';
  if (stats.size > MAX_FLOW_BYTES) return `is larger than ${MAX_FLOW_BYTES / 1024} KiB`;
  return readFile(path).catch((error: Error) => `cannot be read: ${error.message}`);
}

/** The environment values every `value-env` fill names, each read once now; a missing one refuses the check. */
function captureFills(journeys: LoadedJourney[], env: NodeJS.ProcessEnv): LoadedFlows | FlowProblem {
  const values = new Map<string, string>();
  const secrets: string[] = [];
  const problems: string[] = [];
  for (const journey of journeys) {
    for (const [index, step] of journey.flow.steps.entries()) {
      if (step.action !== 'fill') continue;
      if ('literal' in step.value) {
        secrets.push(step.value.literal);
        continue;
      }
      const name = step.value.env;
      const value = env[name];
      const where = `journey \`${journey.name}\` (${journey.file}) step ${index + 1} fills from ${name}`;
      if (value === undefined) problems.push(`${where}, which is not set; set it in the environment of \`yoke check\`.`);
      else if (value.length > FLOW_LIMITS.maxValueChars) problems.push(`${where}, whose value is longer than ${FLOW_LIMITS.maxValueChars} characters.`);
      else {
        values.set(name, value);
        secrets.push(value);
      }
    }
  }
  const [first, ...rest] = problems;
  if (first !== undefined) return { reason: 'env-missing', message: first, details: [...rest, 'nothing was run and the earlier evidence was kept.'] };
  return { journeys, env: values, secrets };
}
