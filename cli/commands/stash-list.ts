// `yoke stash list`: the stash index, newest first, folded from the journal (never changes anything).
import { foldStashIndex, type IndexEntry } from '../../store/stash/stash-index.js';
import { readWorkspace } from '../../store/session/read-workspace.js';
import { findProjectQuick } from '../find-project-quick.js';
import { entryJson, humanBytes, shortId } from '../stash-format.js';

/** Print every stash entry (and an interrupted operation, if one waits to be finished). */
export async function stashListCommand(flags: { json: boolean }): Promise<number> {
  const { records, store } = await readWorkspace(await findProjectQuick(process.cwd()));
  const index = foldStashIndex(records, (seq) => store.recordLocation(seq));
  const newestFirst = [...index.entries].reverse();
  const interrupted = index.open ? { op: index.open.begun.op, seq: index.open.seq, time: index.open.time } : null;
  if (flags.json) {
    process.stdout.write(`${JSON.stringify({ entries: newestFirst.map(entryJson), interrupted })}\n`);
    return 0;
  }
  if (newestFirst.length === 0) {
    process.stdout.write('The stash is empty.\n');
  } else {
    const rows = [['ID', 'TIME', 'MODE', 'VIA', 'FILES', 'SIZE', 'STATE', 'MESSAGE'], ...newestFirst.map(row)];
    const widths = rows[0]?.map((_, column) => Math.max(...rows.map((cells) => (cells[column] ?? '').length))) ?? [];
    for (const cells of rows) {
      process.stdout.write(`${cells.map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column] ?? 0))).join('  ').trimEnd()}\n`);
    }
  }
  if (interrupted) {
    process.stdout.write(`An interrupted \`${interrupted.op}\` (journal record ${interrupted.seq}) is pending: the next yoke stash, pop, checkout, clean or mode finishes it.\n`);
  }
  return 0;
}

function row(entry: IndexEntry): string[] {
  const state = entry.popped ? 'popped' : !entry.cleared ? 'interrupted' : entry.restores.length > 0 ? 'restored' : '-';
  return [
    shortId(entry.id),
    entry.time.replace('T', ' ').replace(/\.\d+Z$/, 'Z'),
    entry.mode,
    entry.via,
    String(entry.files),
    humanBytes(entry.bytes),
    state,
    (entry.message ?? '').split('\n')[0] ?? '',
  ];
}
