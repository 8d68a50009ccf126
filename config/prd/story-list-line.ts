// Where prd.yaml's story list is: the line of its `stories:` key, for a message about the list as a whole.
import { isMap, isScalar, LineCounter, parseDocument } from 'yaml';

/**
 * The 1-based line of the `stories:` key in prd.yaml's text; 1 when the text has none (it is
 * validated before anyone asks).
 * @example storyListLine('# our stories\nstories:\n  - id: S1\n') // 2
 */
export function storyListLine(text: string): number {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter });
  if (!isMap(doc.contents)) return 1;
  const pair = doc.contents.items.find((item) => isScalar(item.key) && item.key.value === 'stories');
  const start = isScalar(pair?.key) ? pair.key.range?.[0] : undefined;
  return start === undefined ? 1 : lineCounter.linePos(start).line;
}
