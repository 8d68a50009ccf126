// Writes one story's `passes` into the text of prd.yaml (pure), changing nothing else: comments,
// flow lists, quoting and long lines stay exactly as the user wrote them.
import { isMap, isScalar, isSeq, parseDocument, type YAMLMap } from 'yaml';

/**
 * prd.yaml's text with `passes: <value>` on the story `id`, edited in place: an existing value is
 * replaced, a missing one is added as the story's last field (`, passes: …` in a flow mapping).
 * Every other byte stays as written. Null when the text has no such story (or is not a story list).
 * @example setStoryPasses('stories:\n  - id: S1\n    title: x\n', 'S1', true) // 'stories:\n  - id: S1\n    title: x\n    passes: true\n'
 */
export function setStoryPasses(text: string, id: string, value: boolean): string | null {
  const doc = parseDocument(text);
  if (doc.errors.length > 0 || !isMap(doc.contents)) return null;
  const list = doc.contents.get('stories', true);
  if (!isSeq(list)) return null;
  for (const item of list.items) {
    if (!isMap(item)) continue;
    const idNode = item.get('id', true);
    if (!isScalar(idNode) || String(idNode.value) !== id) continue;
    const passes = item.get('passes', true);
    if (isScalar(passes) && passes.value === value) return text;
    if (isScalar(passes) && passes.range) {
      const [start, end] = passes.range;
      return `${text.slice(0, start)}${start === end ? ' ' : ''}${value}${text.slice(end)}`;
    }
    return addPasses(text, item, value);
  }
  return null;
}

/** The text with `passes: <value>` added to the story mapping `story`, which has no usable `passes`. */
function addPasses(text: string, story: YAMLMap, value: boolean): string | null {
  const range = story.range;
  if (!range) return null;
  if (story.flow === true) {
    // `{ id: S1, title: x }`: before the closing brace
    const close = text.lastIndexOf('}', range[1]);
    if (close < range[0]) return null;
    const before = text.slice(range[0], close).trimEnd();
    const at = range[0] + before.length;
    return `${text.slice(0, at)}${before.endsWith('{') ? '' : ','} passes: ${value}${text.slice(at)}`;
  }
  const first = story.items[0]?.key;
  const firstStart = isScalar(first) ? first.range?.[0] : undefined;
  if (firstStart === undefined) return null;
  const indent = firstStart - (text.lastIndexOf('\n', firstStart - 1) + 1);
  // after the line that holds the story's last character (its trailing comment included)
  let last = range[1];
  while (last > range[0] && /\s/.test(text[last - 1] ?? '')) last -= 1;
  const lineEnd = text.indexOf('\n', last);
  const at = lineEnd === -1 ? text.length : lineEnd;
  return `${text.slice(0, at)}\n${' '.repeat(indent)}passes: ${value}${text.slice(at)}`;
}
