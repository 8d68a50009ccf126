// Reads `store <url>` (DESIGN §14): `file`, or a PostgreSQL URL whose secrets are never shown and may be `${VARIABLE}` references.

import { parsed, rejected, type ParsedValue } from './parsed-value.js';

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

/** A `${NAME}` reference to an environment variable inside a store URL. */
export const STORE_URL_REFERENCE = /\$\{([^}]*)\}/g;
const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** What a `store` line says: the file journal, or a PostgreSQL URL (as written, references unexpanded). */
export type StoreSetting = { kind: 'file' } | { kind: 'postgres'; written: string; shown: string; passwordWritten: boolean };

/** Read the argument of `store`: `file` or `postgres://…`; `${NAME}` references must name a variable. */
export function parseStoreUrl(text: string): ParsedValue<StoreSetting> {
  if (text === 'file') return parsed({ kind: 'file' });
  if (!isPostgresUrl(text)) {
    return rejected(`\`store\` must be \`file\` or a postgres://… URL, not \`${text.includes('@') ? redactStoreUrl(text) : text}\``, 'write it like `store postgres://yoke@db.example:5432/yoke` (the password from PGPASSWORD or ~/.pgpass, or as ${VARIABLE})');
  }
  for (const match of text.matchAll(STORE_URL_REFERENCE)) {
    if (!VARIABLE_NAME.test(match[1] ?? '')) return rejected(`\`\${${match[1] ?? ''}}\` in the store URL is not a variable reference`, 'write `${NAME}` with a variable name of letters, digits and `_`');
  }
  // Placeholders keep `${…}` out of the URL parser; the shown form never has them anyway.
  const probe = text.replace(STORE_URL_REFERENCE, 'x');
  const password = passwordOf(probe);
  if (password === null) return rejected(`the store URL \`${redactStoreUrl(probe)}\` cannot be read as a URL`, 'write it like `postgres://user@host:5432/database`');
  const passwordPart = /^[^:]+:\/\/[^:/@]*:([^@/]*)@/.exec(text)?.[1] ?? '';
  const passwordWritten = password !== '' && !/^\$\{[^}]*\}$/.test(passwordPart);
  return parsed({ kind: 'postgres', written: text, shown: redactStoreUrl(probe), passwordWritten });
}

/** The `store` line of a yoke.conf text (the first one: the parser refuses a second), without parsing the rest. */
export function storeLineOf(text: string): { argument: string; line: number } | null {
  let found: { argument: string; line: number } | null = null;
  text.split('\n').forEach((raw, index) => {
    const match = /^\s*store\s+(\S+)\s*(?:#.*)?$/.exec(raw);
    if (match?.[1] !== undefined && found === null) found = { argument: match[1], line: index + 1 };
  });
  return found;
}

function passwordOf(url: string): string | null {
  try {
    return new URL(url).password;
  } catch {
    return null;
  }
}
