// `yoke store init`: create or migrate the schema of the PostgreSQL store YOKE_STORE names.
import { initSharedStore } from '../../store/session/init-store.js';
import { findProject } from '../find-project.js';

/** Create the schema (or migrate it) and say what was done. */
export async function storeInitCommand(flags: { json: boolean }): Promise<number> {
  const report = await initSharedStore(process.env, projectRoot());
  if (flags.json) {
    process.stdout.write(`${JSON.stringify(report)}\n`);
    return 0;
  }
  const what = report.from === report.to ? 'already at' : report.from === 0 ? 'created at' : `migrated from ${report.from} to`;
  process.stdout.write(`${report.store}: yoke schema ${what} version ${report.to}.\n`);
  return 0;
}

/** The project around the current folder, whose `store` directive applies when YOKE_STORE is unset (none: null). */
function projectRoot(): string | null {
  try {
    return findProject(process.cwd()).root;
  } catch {
    return null;
  }
}
