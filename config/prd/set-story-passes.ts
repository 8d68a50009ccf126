// Writes one story's `passes` into the text of prd.yaml (pure), keeping the user's comments and layout.
import { isMap, isScalar, isSeq, parseDocument } from 'yaml';

/**
 * prd.yaml's text with `passes: <value>` on the story `id` (added after its other fields when it has
 * none), everything else as written. Null when the text has no such story (or is not a story list).
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
    item.set('passes', value);
    return doc.toString();
  }
  return null;
}
