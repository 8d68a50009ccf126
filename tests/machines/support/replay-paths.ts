// Replays many event paths through a pure fold, folding each shared prefix only once.

/** Paths sharing a prefix share its replay: a trie keyed by the event objects (paths built from shared samples share keys). */
interface PathTrie<E> {
  children: Map<E, PathTrie<E>>;
}

function toTrie<E>(paths: ReadonlyArray<readonly E[]>): PathTrie<E> {
  const root: PathTrie<E> = { children: new Map() };
  for (const path of paths) {
    let node = root;
    for (const event of path) {
      let child = node.children.get(event);
      if (!child) {
        child = { children: new Map() };
        node.children.set(event, child);
      }
      node = child;
    }
  }
  return root;
}

/**
 * Replay every path from `start`, one `step` per event. The loop machine is pure and deterministic
 * (loop.test.ts checks it) and `step` must not mutate its input state, so folding a shared prefix once gives every path through it exactly
 * the state a replay from scratch would: each step of each path is still checked, in order.
 * Returns how many distinct steps were folded.
 */
export function replayAll<E, S>(paths: ReadonlyArray<readonly E[]>, start: S, step: (state: S, path: E[]) => S): number {
  let folded = 0;
  const visit = (node: PathTrie<E>, state: S, prefix: E[]): void => {
    for (const [event, child] of node.children) {
      folded += 1;
      const path = [...prefix, event];
      visit(child, step(state, path), path);
    }
  };
  visit(toTrie(paths), start, []);
  return folded;
}
