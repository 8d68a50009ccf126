// Reads `store file|<postgres-url>` (DESIGN §14): where the journal is kept; only the URL's shown form enters the config.
import { setScalar } from './config-draft.js';
import { oneArgument, reportAt, type DirectiveContext } from './directive-context.js';
import { parseStoreUrl } from './parse-store-url.js';

/**
 * `store <url>`. The config (journaled in `run.started`) keeps `postgres://host:port/db` only; the
 * store itself is opened from the line as written (store/session/store-selection.ts). A password
 * written into the file is accepted with a warning: yoke.conf is committed with the project.
 */
export function readStore(ctx: DirectiveContext): void {
  const token = oneArgument(ctx);
  if (token === null) return;
  const setting = parseStoreUrl(token.text);
  if (!setting.ok) {
    reportAt(ctx, token, setting);
    return;
  }
  if (setting.value.kind === 'file') {
    setScalar(ctx.draft, 'store', 'file');
    return;
  }
  if (setting.value.passwordWritten) {
    ctx.issues.warning(ctx.line.number, token.column, 'the store URL has its password written in yoke.conf, which is committed with the project', 'leave it out and set PGPASSWORD (or ~/.pgpass), or write it as ${VARIABLE}, like `postgres://yoke:${YOKE_DB_PASSWORD}@db:5432/yoke`');
  }
  setScalar(ctx.draft, 'store', setting.value.shown);
}
