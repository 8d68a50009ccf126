// Parses and validates the text of `.loop/prd.yaml` (DESIGN §8). Pure: no I/O. Every problem is
// reported at once, located to the line and column of the YAML node it is about.
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node, type Pair, type YAMLMap } from 'yaml';
import { withSuggestion } from '../closest-match.js';
import { createIssueCollector, type IssueCollector } from '../issue-collector.js';
import type { ConfigIssue } from '../types.js';
import { dependencyCycle } from './dependency-cycle.js';
import { STORY_ID, type Criterion, type Story } from './story.js';

const STORY_FIELDS = ['id', 'title', 'priority', 'depends-on', 'acceptance', 'passes', 'description', 'notes'];
const HINT = 'see docs/stories.md for the prd.yaml format';

/** Where a node starts, as 1-based line and column. */
type Locate = (node: { range?: [number, number, number] | null } | null | undefined) => { line: number; col: number };

/**
 * The stories, or null with every issue (file:line:column). `text` null: the file does not exist.
 * @example parsePrd('stories:\n  - id: S1\n    title: Hello\n    acceptance: [says hello]\n', '.loop/prd.yaml').stories?.[0]?.id // 'S1'
 */
export function parsePrd(text: string | null, file: string): { stories: Story[] | null; issues: ConfigIssue[] } {
  const issues = createIssueCollector(file);
  if (text === null) {
    issues.error(1, 1, 'prd.yaml is missing', 'write the story list there or convert one with `yoke stories import <file>`; `yoke init stories` writes a template');
    return { stories: null, issues: issues.sorted() };
  }
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const locate: Locate = (node) => lineCounter.linePos(node?.range?.[0] ?? 0);
  for (const error of doc.errors) {
    const { line, col } = lineCounter.linePos(error.pos[0]);
    issues.error(line, col, `prd.yaml is not valid YAML: ${error.message.split('\n')[0] ?? error.message}`, 'fix the YAML syntax');
  }
  if (doc.errors.length > 0) return { stories: null, issues: issues.sorted() };
  const root = doc.contents;
  if (!isMap(root)) {
    const { line, col } = locate(root);
    issues.error(line, col, root === null ? 'prd.yaml is empty' : 'prd.yaml is a mapping with a `stories:` list', 'write `stories:` with a list of stories below it; ' + HINT);
    return { stories: null, issues: issues.sorted() };
  }
  const list = root.get('stories', true) as Node | undefined;
  if (!isSeq(list) || list.items.length === 0) {
    const pair = findPair(root, 'stories');
    const { line, col } = locate((list) ?? (pair?.key as Node | undefined) ?? root);
    const message = pair === undefined ? 'prd.yaml has no `stories:` list' : isSeq(list) ? 'the story list is empty' : '`stories` is not a list';
    issues.error(line, col, message, 'write at least one story as `- id: S1` with a `title` and `acceptance` below it; ' + HINT);
    return { stories: null, issues: issues.sorted() };
  }
  const stories: Story[] = [];
  const depNodes = new Map<Story, Node[]>();
  for (const item of list.items) {
    const read = readStory(item as Node, issues, locate);
    if (read) {
      stories.push(read.story);
      depNodes.set(read.story, read.deps);
    }
  }
  checkGraph(stories, depNodes, issues, locate);
  return issues.hasErrors() ? { stories: null, issues: issues.sorted() } : { stories, issues: issues.sorted() };
}

function findPair(map: YAMLMap, key: string): Pair | undefined {
  return map.items.find((pair: Pair) => isScalar(pair.key) && pair.key.value === key);
}

/** One story entry, or null when it cannot be read at all (its issues reported). */
function readStory(node: Node, issues: IssueCollector, locate: Locate): { story: Story; deps: Node[] } | null {
  const { line, col } = locate(node);
  if (!isMap(node)) {
    issues.error(line, col, 'a story is a mapping', 'write each story as `- id: S1` with `title:` and `acceptance:` below it; ' + HINT);
    return null;
  }
  const idNode = node.get('id', true) as Node | undefined;
  const idValue = isScalar(idNode) ? idNode.value : undefined;
  const id = typeof idValue === 'string' || typeof idValue === 'number' ? String(idValue) : null;
  const label = id === null ? `the story at line ${line}` : `story ${id}`;
  let ok = true;
  const fail = (at: Node | null | undefined, message: string, hint: string) => {
    const where = locate(at ?? node);
    issues.error(where.line, where.col, message, hint);
    ok = false;
  };
  for (const pair of node.items) {
    const key = isScalar(pair.key) ? String(pair.key.value) : '';
    if (!STORY_FIELDS.includes(key)) fail(pair.key as Node, `${label} has no field \`${key}\``, withSuggestion(`its fields are ${STORY_FIELDS.join(', ')}`, key, STORY_FIELDS));
  }
  if (id === null) fail(idNode, idNode === undefined ? `${label} has no \`id\`` : `the \`id\` of ${label} is not a word`, 'give it an id like `S1`');
  else if (!STORY_ID.test(id)) fail(idNode, `\`${id}\` is not a safe story id (ids become branch and file names)`, 'use a letter or digit, then letters, digits, `_` or `-`, at most 64 characters');
  const title = text(node, 'title');
  if (title.node === undefined || title.value === undefined || title.value.trim() === '') {
    fail(title.node, title.node === undefined ? `${label} has no \`title\`` : `the \`title\` of ${label} is not text`, 'add `title: <what the story delivers>`');
  }
  const priorityNode = node.get('priority', true) as Node | undefined;
  const priorityValue = isScalar(priorityNode) ? priorityNode.value : undefined;
  if (priorityNode !== undefined && priorityValue !== null && typeof priorityValue !== 'number') fail(priorityNode, `the \`priority\` of ${label} is not a number`, 'write a number; lower runs first');
  const passesNode = node.get('passes', true) as Node | undefined;
  const passesValue = isScalar(passesNode) ? passesNode.value : undefined;
  if (passesNode !== undefined && typeof passesValue !== 'boolean') fail(passesNode, `\`passes\` of ${label} is not a boolean`, 'write `passes: false` (yoke sets it to true when the story passes)');
  const deps: Node[] = [];
  const depsNode = node.get('depends-on', true) as Node | undefined;
  if (depsNode !== undefined && !(isScalar(depsNode) && depsNode.value === null)) {
    if (!isSeq(depsNode)) fail(depsNode, `\`depends-on\` of ${label} is not a list`, 'write `depends-on: [S1, S2]`');
    else for (const dep of depsNode.items as Node[]) {
      if (isScalar(dep) && (typeof dep.value === 'string' || typeof dep.value === 'number')) deps.push(dep);
      else fail(dep, `an entry of \`depends-on\` in ${label} is not a story id`, 'write `depends-on: [S1, S2]`');
    }
  }
  const acceptance = readAcceptance(node, label, fail);
  const optional: { description?: string; notes?: string } = {};
  for (const key of ['description', 'notes'] as const) {
    const field = text(node, key);
    if (field.node === undefined) continue;
    if (field.value === undefined) fail(field.node, `the \`${key}\` of ${label} is not text`, 'write it as text (a `|` block keeps line breaks)');
    else optional[key] = field.value;
  }
  if (!ok || id === null) return null;
  return {
    story: {
      id,
      title: (title.value ?? '').trim(),
      priority: typeof priorityValue === 'number' ? priorityValue : null,
      dependsOn: deps.map((dep) => String((dep as { value: unknown }).value)),
      acceptance,
      passes: passesValue === true,
      ...optional,
      line,
    },
    deps,
  };
}

/** A scalar field's node and its text (numbers and booleans count as text for titles and notes). */
function text(map: YAMLMap, key: string): { node: Node | undefined; value: string | undefined } {
  const node = map.get(key, true) as Node | undefined;
  if (!isScalar(node)) return { node, value: undefined };
  const value = node.value;
  return { node, value: typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : undefined };
}

/** `acceptance`: null when absent or empty (Stop-the-Line), else each criterion as text or `{ text, check }`. */
function readAcceptance(map: YAMLMap, label: string, fail: (at: Node | null | undefined, message: string, hint: string) => void): Criterion[] | null {
  const node = map.get('acceptance', true) as Node | undefined;
  if (node === undefined || (isScalar(node) && node.value === null)) return null;
  const hint = 'write each criterion as text, or as `- text: …` with an optional `check: <command>`';
  if (!isSeq(node)) {
    fail(node, `\`acceptance\` of ${label} is not a list`, hint);
    return null;
  }
  const criteria: Criterion[] = [];
  for (const item of node.items as Node[]) {
    if (isScalar(item) && (typeof item.value === 'string' || typeof item.value === 'number')) {
      criteria.push({ text: String(item.value) });
      continue;
    }
    if (!isMap(item)) {
      fail(item, `a criterion of ${label} is neither text nor a mapping`, hint);
      continue;
    }
    for (const pair of item.items) {
      const key = isScalar(pair.key) ? String(pair.key.value) : '';
      if (key !== 'text' && key !== 'check') fail(pair.key as Node, `a criterion of ${label} has no field \`${key}\``, withSuggestion('its fields are text and check', key, ['text', 'check']));
    }
    const criterionText = text(item, 'text');
    const check = text(item, 'check');
    if (criterionText.value === undefined || criterionText.value.trim() === '') fail(criterionText.node ?? item, `a criterion of ${label} has no \`text\``, hint);
    if (check.node !== undefined && (check.value === undefined || check.value.trim() === '')) fail(check.node, `the \`check\` of a criterion of ${label} is not a command`, 'write the shell command that exits 0 when the criterion is met');
    criteria.push({ text: criterionText.value ?? '', ...(check.value !== undefined ? { check: check.value } : {}) });
  }
  return criteria;
}

/** Unique ids, known dependencies, no cycle: each error at the entry that breaks the rule. */
function checkGraph(stories: readonly Story[], depNodes: ReadonlyMap<Story, Node[]>, issues: IssueCollector, locate: Locate): void {
  const seen = new Map<string, Story>();
  for (const story of stories) {
    const first = seen.get(story.id);
    if (first) issues.error(story.line, 1, `story id \`${story.id}\` is used twice (first at line ${first.line})`, 'give every story its own id');
    else seen.set(story.id, story);
  }
  let known = true;
  for (const story of stories) {
    story.dependsOn.forEach((dep, index) => {
      if (seen.has(dep)) return;
      known = false;
      const where = locate(depNodes.get(story)?.[index]);
      issues.error(where.line, where.col, `story ${story.id} depends on \`${dep}\`, which is not a story here`, withSuggestion('name an id of this file', dep, [...seen.keys()]));
    });
  }
  if (!known || issues.hasErrors()) return;
  const cycle = dependencyCycle(stories);
  if (cycle !== null) {
    const first = stories.find((story) => story.id === cycle[0]);
    issues.error(first?.line ?? 1, 1, `the stories depend on each other in a cycle: ${cycle.join(' → ')}`, 'remove one of these `depends-on` entries');
  }
}
