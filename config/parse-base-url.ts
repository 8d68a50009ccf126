// Reads `base-url`: where journeys open their flows, an http(s) origin with an optional path.
import { parsed, rejected, type ParsedValue } from './parsed-value.js';

const HINT = 'write an http or https address without credentials, query or fragment, like http://127.0.0.1:3000 or http://localhost:8080/app';

/**
 * The URL without trailing slashes (flow paths are appended to it: `http://x/app` + `/login`).
 * Credentials, a query or a fragment are refused: a flow path is appended to the URL, and
 * credentials would end up in the check's configuration digest and the browser's history.
 */
export function parseBaseUrl(text: string): ParsedValue<string> {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return rejected(`\`${text}\` is not a URL`, HINT);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return rejected(`\`${text}\` is not an http or https address`, HINT);
  if (url.username !== '' || url.password !== '') return rejected('the base URL carries credentials', HINT);
  if (url.search !== '' || url.hash !== '' || text.includes('?') || text.includes('#')) {
    return rejected(`\`${text}\` has a query or fragment`, HINT);
  }
  return parsed(`${url.origin}${url.pathname}`.replace(/\/+$/, ''));
}
