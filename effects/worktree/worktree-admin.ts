// Git's worktree registry (.git/worktrees/) is not safe for concurrent changes: a `git worktree
// prune` run while another lane's `git worktree add` is halfway removes that worktree's admin folder
// ("failed to read .git/worktrees/S1/commondir"). One yoke process owns the lanes, so their
// registry changes (add, remove, prune) take turns per repository here.

const queues = new Map<string, Promise<unknown>>();

/** Run `change` after every earlier registry change of the repository at `root` has settled. */
export function changeWorktreeRegistry<T>(root: string, change: () => Promise<T>): Promise<T> {
  const before = queues.get(root) ?? Promise.resolve();
  const turn = before.then(change, change);
  const settled = turn.then(() => undefined, () => undefined);
  queues.set(root, settled);
  void settled.then(() => {
    if (queues.get(root) === settled) queues.delete(root);
  });
  return turn;
}
