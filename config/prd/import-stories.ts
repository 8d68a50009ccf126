// Converts a Ralph `prd.json`, or a YAML/JSON list of `{id, title, priority, acceptance, passes}`,
// into the text of `.loop/prd.yaml` (DESIGN §8). Pure: no I/O. Problems are located in the input
// file; the result is validated again by parsePrd, so what is written always loads.
import { isMap, isScalar, isSeq, LineCounter, parseDocument, stringify, type Node, type YAMLMap } from 'yaml';
import { createIssueCollector } from '../issue-collector.js';
import type { ConfigIssue } from '../types.js';
import { parsePrd } from './parse-prd.js';

/** A field of the input yoke does not carry over, and where it was. */
export interface IgnoredField {
  field: string;
  /** the story it belongs to, null for a top-level field */
  story: string | null;
  line: number;
  /** its value, when it is text worth repeating (a Ralph `branchName`) */
  value: string | null;
}

/** The converted stories, or the input's issues. */
export type ImportResult =
  | { ok: true; yaml: string; format: 'ralph' | 'list'; stories: number; passed: number; ignored: IgnoredField[] }
  | { ok: false; issues: ConfigIssue[] };

/** Story fields in the input → the prd.yaml field they become. */
const FIELD_NAMES: Record<string, string> = {
  id: 'id',
  title: 'title',
  priority: 'priority',
  description: 'description',
  notes: 'notes',
  passes: 'passes',
  acceptance: 'acceptance',
  acceptanceCriteria: 'acceptance',
  'depends-on': 'depends-on',
  dependsOn: 'depends-on',
  dependencies: 'depends-on',
};

/** prd.yaml's field order. */
const ORDER = ['id', 'title', 'priority', 'depends-on', 'description', 'acceptance', 'passes', 'notes'];

/**
 * Convert `text` (the content of `file`).
 * @example importStories('{"userStories":[{"id":"US-1","title":"Hi","acceptanceCriteria":["says hi"],"passes":false}]}', 'prd.json').ok // true
 */
export function importStories(text: string, file: string): ImportResult {
  const issues = createIssueCollector(file);
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const at = (node: Node | null | undefined) => lineCounter.linePos(node?.range?.[0] ?? 0);
  const fail = (node: Node | null | undefined, message: string, hint: string): ImportResult => {
    const { line, col } = at(node);
    issues.error(line, col, message, hint);
    return { ok: false, issues: issues.sorted() };
  };
  const [syntax] = doc.errors;
  if (syntax) {
    const { line, col } = lineCounter.linePos(syntax.pos[0]);
    issues.error(line, col, `${file} is neither valid JSON nor valid YAML: ${syntax.message.split('\n')[0] ?? syntax.message}`, 'fix its syntax');
    return { ok: false, issues: issues.sorted() };
  }
  const root = doc.contents as Node | null;
  const ignored: IgnoredField[] = [];
  let list: Node | undefined;
  let format: 'ralph' | 'list' = 'list';
  if (isSeq(root)) list = root;
  else if (isMap(root)) {
    const key = root.has('userStories') ? 'userStories' : root.has('stories') ? 'stories' : null;
    if (key === null) return fail(root, `${file} has neither a \`userStories\` list (Ralph's prd.json) nor a \`stories\` list`, 'give it `userStories: [...]`, or write the file as a list of stories');
    format = key === 'userStories' ? 'ralph' : 'list';
    list = root.get(key, true) ?? undefined;
    for (const pair of root.items) {
      const name = isScalar(pair.key) ? String(pair.key.value) : '';
      if (name === key) continue;
      const value = isScalar(pair.value) && typeof pair.value.value === 'string' ? pair.value.value : null;
      ignored.push({ field: name, story: null, line: at(pair.key as Node).line, value });
    }
  } else return fail(root, `${file} holds no stories`, 'write a Ralph prd.json with `userStories`, or a list of `{id, title, priority, acceptance, passes}`');
  if (!isSeq(list) || list.items.length === 0) return fail(list ?? root, isSeq(list) ? `the story list of ${file} is empty` : `the stories of ${file} are not a list`, 'write at least one story with an `id` and a `title`');
  const stories: Array<Record<string, unknown>> = [];
  const lines: number[] = [];
  for (const item of list.items as Node[]) {
    if (!isMap(item)) return fail(item, 'a story is not a mapping', 'write each story as an object with `id`, `title` and `acceptance`');
    const story = convertStory(item, at, ignored);
    if ('error' in story) return fail(story.node, story.error, story.hint);
    stories.push(story.value);
    lines.push(at(item).line);
  }
  const yaml = `# The story list, imported from ${baseName(file)} by \`yoke stories import\` (see docs/stories.md).\n# yoke works one ready story per iteration, lowest priority first; only yoke sets \`passes: true\`.\n${stringify({ stories }, { lineWidth: 0 })}`;
  // What prd.yaml validation says about the result (duplicate ids, unknown dependencies, a cycle,
  // unsafe ids), told at the input story it is about.
  const checked = parsePrd(yaml, '.loop/prd.yaml');
  const written = storyLines(yaml);
  const errors = checked.issues.filter((issue) => issue.severity === 'error');
  if (checked.stories === null || errors.length > 0) {
    for (const issue of errors) {
      const index = written.findLastIndex((line) => line <= issue.line);
      issues.error(lines[index] ?? 1, 1, issue.message.replace(/ \(first at line \d+\)$/, ''), issue.hint);
    }
    return { ok: false, issues: issues.sorted() };
  }
  return { ok: true, yaml, format, stories: checked.stories.length, passed: checked.stories.filter((story) => story.passes).length, ignored };
}

/** One story in prd.yaml's shape, or why it cannot be converted. */
function convertStory(item: YAMLMap, at: (node: Node | null | undefined) => { line: number }, ignored: IgnoredField[]): { value: Record<string, unknown> } | { error: string; node: Node; hint: string } {
  const out: Record<string, unknown> = {};
  const idNode = item.get('id', true) as Node | undefined;
  const idValue = isScalar(idNode) ? idNode.value : null;
  const label = typeof idValue === 'string' || typeof idValue === 'number' ? `story ${idValue}` : `the story at line ${at(item).line}`;
  for (const pair of item.items) {
    const name = isScalar(pair.key) ? String(pair.key.value) : '';
    const field = FIELD_NAMES[name];
    const node = pair.value as Node | null;
    if (field === undefined) {
      ignored.push({ field: name, story: typeof idValue === 'string' || typeof idValue === 'number' ? String(idValue) : `at line ${at(item).line}`, line: at(pair.key as Node).line, value: null });
      continue;
    }
    const value = node === null ? null : (node as { toJSON(): unknown }).toJSON();
    // Ralph writes `"notes": ""` and `"description": ""` for none.
    if ((field === 'notes' || field === 'description') && (value === '' || value === null)) continue;
    if (field in out) return { error: `${label} has both \`${name}\` and another name for \`${field}\``, node: pair.key as Node, hint: 'keep one of them' };
    if (field === 'acceptance' && value !== null && !Array.isArray(value)) return { error: `the \`${name}\` of ${label} is not a list`, node: node ?? item, hint: 'write its criteria as a list of texts' };
    if (field === 'depends-on' && value !== null && !Array.isArray(value)) return { error: `the \`${name}\` of ${label} is not a list`, node: node ?? item, hint: 'write it as a list of story ids' };
    if (field === 'id' && typeof value === 'number') out[field] = String(value);
    else if (field === 'depends-on' && Array.isArray(value)) out[field] = (value as unknown[]).map((dep): unknown => (typeof dep === 'number' ? String(dep) : dep));
    else out[field] = value;
  }
  if (out.id === undefined || out.id === null) return { error: `${label} has no \`id\``, node: item, hint: 'give every story an id like `US-001`' };
  if (out.title === undefined || out.title === null) return { error: `${label} has no \`title\``, node: item, hint: 'give every story a `title`' };
  if (out.passes === undefined || out.passes === null) out.passes = false;
  if (typeof out.passes !== 'boolean') return { error: `\`passes\` of ${label} is not a boolean`, node: (item.get('passes', true) as Node | undefined) ?? item, hint: 'write `true` or `false`' };
  if (out.priority !== undefined && out.priority !== null && typeof out.priority !== 'number') return { error: `the \`priority\` of ${label} is not a number`, node: (item.get('priority', true) as Node | undefined) ?? item, hint: 'write a number; lower runs first' };
  const ordered: Record<string, unknown> = {};
  for (const key of ORDER) if (out[key] !== undefined && !(key === 'priority' && out[key] === null)) ordered[key] = out[key];
  return { value: ordered };
}

/** The line of each `- id:` entry of the written prd.yaml, in order. */
function storyLines(yaml: string): number[] {
  const lineCounter = new LineCounter();
  const doc = parseDocument(yaml, { lineCounter });
  const list = isMap(doc.contents) ? doc.contents.get('stories', true) : null;
  return isSeq(list) ? (list.items as Node[]).map((item) => lineCounter.linePos(item.range?.[0] ?? 0).line) : [];
}

function baseName(file: string): string {
  return file.split(/[\\/]/).pop() ?? file;
}
