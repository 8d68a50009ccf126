// A PostgreSQL store URL (DESIGN §14): recognized, and shown without its secrets.

/** Does `value` name a PostgreSQL store (`postgres://…` or `postgresql://…`)? */
export function isPostgresUrl(value: string): boolean {
  return /^postgres(ql)?:\/\//i.test(value.trim());
}

/**
 * The URL as messages and the journal may show it: scheme, host, port and database only. The user,
 * the password and every query parameter (`?password=`, `sslkey=`, …) are dropped, never printed.
 */
export function redactStoreUrl(value: string): string {
  try {
    const url = new URL(value.trim());
    const port = url.port === '' ? '' : `:${url.port}`;
    return `${url.protocol}//${url.hostname}${port}${url.pathname}`;
  } catch {
    return 'postgres://(unreadable URL)';
  }
}
