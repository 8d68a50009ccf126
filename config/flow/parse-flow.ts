// Parses and validates the text of one journey flow file. Pure: no I/O. Every problem is reported
// at once, located to the line and column of the YAML node it is about.
import { isMap, isPair, isScalar, LineCounter, parseDocument, type Document } from 'yaml';
import type { z } from 'zod';
import { withSuggestion } from '../closest-match.js';
import { createIssueCollector } from '../issue-collector.js';
import type { ConfigIssue } from '../types.js';
import { FLOW_LIMITS, flowFileSchema, STEP_ACTIONS, toFlow, type Flow } from './flow-schema.js';

const FLOW_FIELDS = ['path', 'timeout', 'steps'];
const STEP_FIELDS: Record<string, string[]> = {
  'click': ['selector', 'timeout'],
  'fill': ['selector', 'value', 'value-env', 'timeout'],
  'press': ['selector', 'key', 'timeout'],
  'expect-visible': ['selector', 'timeout'],
  'expect-text': ['selector', 'text', 'exact', 'timeout'],
  'expect-url': ['url', 'timeout'],
  'reload': ['timeout'],
};

type Path = readonly PropertyKey[];

/**
 * The flow, or null with every issue (file:line:column). Messages name fields and actions, never
 * a selector, text or fill value: those may be private.
 * @example parseFlow('steps:\n  - action: reload\n', 'journeys/smoke.yaml').flow?.steps
 */
export function parseFlow(text: string, file: string): { flow: Flow | null; issues: ConfigIssue[] } {
  const issues = createIssueCollector(file);
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const at = (offset: number): { line: number; col: number } => lineCounter.linePos(offset);
  for (const error of doc.errors) {
    const { line, col } = at(error.pos[0]);
    issues.error(line, col, `the flow is not valid YAML: ${firstLine(error.message)}`, 'fix the YAML syntax');
  }
  if (doc.errors.length > 0) return { flow: null, issues: issues.sorted() };
  if (!isMap(doc.contents)) {
    const offset = (doc.contents as { range?: [number, number, number] } | null)?.range?.[0] ?? 0;
    const { line, col } = at(offset);
    const message = doc.contents === null ? 'the flow file is empty' : 'a flow is a mapping, not a single value or a list';
    issues.error(line, col, message, 'write `steps:` with a list of steps below it, and optionally `path:` and `timeout:`; see docs/check.md');
    return { flow: null, issues: issues.sorted() };
  }
  const parsed = flowFileSchema.safeParse(doc.toJS());
  if (parsed.success) return { flow: toFlow(parsed.data), issues: [] };
  for (const issue of parsed.error.issues) {
    const { offset, message, hint } = describe(doc, issue);
    const { line, col } = at(offset);
    issues.error(line, col, message, hint);
  }
  return { flow: null, issues: issues.sorted() };
}

function firstLine(message: string): string {
  return message.split('\n')[0]?.replace(/ at line \d+, column \d+:?$/, '') ?? message;
}

/** Where an issue points (an offset into the text) and what to say about it. */
function describe(doc: Document, issue: z.core.$ZodIssue): { offset: number; message: string; hint: string } {
  const path = issue.path;
  const where = stepWhere(doc, path);
  switch (issue.code) {
    case 'unrecognized_keys': {
      const [key = ''] = issue.keys;
      const fields = where === null ? FLOW_FIELDS : STEP_FIELDS[where.action] ?? [];
      const owner = where === null ? 'a flow' : `${where.label}`;
      return {
        offset: keyOffset(doc, path, key),
        message: `${owner} has no field \`${key}\``,
        hint: withSuggestion(`its fields are ${fields.join(', ')}`, key, fields),
      };
    }
    case 'invalid_union': {
      const action = doc.getIn([...path]);
      const written = typeof action === 'string' ? `\`${action}\`` : 'the step';
      const known = [...STEP_ACTIONS];
      return {
        offset: nodeOffset(doc, path),
        message: action === undefined ? `${where?.label ?? 'a step'} has no \`action\`` : `${written} is not a step action`,
        hint: withSuggestion(`use one of ${known.join(', ')}`, typeof action === 'string' ? action : '', known),
      };
    }
    case 'invalid_type': {
      const field = String(path.at(-1) ?? 'steps');
      if (!has(doc, path)) {
        return { offset: nodeOffset(doc, path.slice(0, -1)), message: `${where?.label ?? 'the flow'} is missing its \`${field}\``, hint: hintFor(where) };
      }
      if (where !== null && path.length === 2) return { offset: nodeOffset(doc, path), message: `${where.label} is not a mapping`, hint: 'write each step as `- action: …` with its fields below it' };
      return { offset: nodeOffset(doc, path), message: `${issue.message} in ${where?.label ?? 'the flow'}`, hint: hintFor(where) };
    }
    case 'too_small':
    case 'too_big':
      if (path.length === 1 && path[0] === 'steps') {
        const steps: unknown = (doc.toJS() as { steps?: unknown }).steps;
        const count = Array.isArray(steps) ? steps.length : 0;
        return { offset: nodeOffset(doc, path), message: `${issue.message}; this one has ${count}`, hint: `write ${FLOW_LIMITS.minSteps} to ${FLOW_LIMITS.maxSteps} steps, or split the journey in two` };
      }
      return { offset: nodeOffset(doc, path), message: `${issue.message} in ${where?.label ?? 'the flow'}`, hint: hintFor(where) };
    default:
      return { offset: nodeOffset(doc, path), message: `${issue.message}${where === null || path.length <= 2 ? '' : ` in ${where.label}`}`, hint: hintFor(where) };
  }
}

/** Which step an issue is about: `steps[i]` → "step i+1 (`fill`)". */
function stepWhere(doc: Document, path: Path): { action: string; label: string } | null {
  if (path[0] !== 'steps' || typeof path[1] !== 'number') return null;
  const action = doc.getIn(['steps', path[1], 'action']);
  const name = typeof action === 'string' && action in STEP_FIELDS ? action : '';
  return { action: name, label: name === '' ? `step ${path[1] + 1}` : `step ${path[1] + 1} (\`${name}\`)` };
}

function hintFor(where: { action: string } | null): string {
  if (where === null) return 'see docs/check.md for the flow file';
  const fields = STEP_FIELDS[where.action];
  return fields === undefined ? 'see docs/check.md for the steps' : `a \`${where.action}\` step has ${fields.join(', ')}`;
}

function has(doc: Document, path: Path): boolean {
  return path.length === 0 || doc.hasIn([...path]);
}

/** The offset of the node at `path`, or of its nearest existing ancestor. */
function nodeOffset(doc: Document, path: Path): number {
  for (let length = path.length; length >= 0; length -= 1) {
    const node = length === 0 ? doc.contents : doc.getIn(path.slice(0, length), true);
    const range = (node as { range?: [number, number, number] } | null | undefined)?.range;
    if (range !== undefined) return range[0];
  }
  return 0;
}

/** The offset of key `key` in the mapping at `path`. */
function keyOffset(doc: Document, path: Path, key: string): number {
  const map = path.length === 0 ? doc.contents : doc.getIn([...path], true);
  if (isMap(map)) {
    for (const pair of map.items) {
      if (isPair(pair) && isScalar(pair.key) && pair.key.value === key && pair.key.range) return pair.key.range[0];
    }
  }
  return nodeOffset(doc, path);
}
