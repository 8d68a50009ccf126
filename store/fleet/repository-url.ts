// A job's git URL without the credentials written into it (DESIGN §14: secrets in URLs are never stored, printed or journaled).

/** What `queue add` keeps of a git URL, and whether it dropped credentials from it. */
export interface StrippedRepository {
  repository: string;
  credentialsRemoved: boolean;
}

/** Schemes whose user name is part of the credential (a token is often written as the user name alone). */
const WEB_SCHEMES = new Set(['http:', 'https:', 'ftp:', 'ftps:']);

/**
 * `https://user:TOKEN@host/repo.git` → `https://host/repo.git`: an http(s) URL loses its whole
 * userinfo, an ssh:// URL only its password (`ssh://git@host/repo.git` keeps `git`, which names the
 * account and is no secret). scp-like `git@host:team/repo.git` and local paths hold no password and
 * are kept as given, as is any URL without credentials (byte for byte: no normalization).
 * The worker clones the stripped URL with its own credentials (a git credential helper, ssh keys).
 */
export function withoutCredentials(location: string): StrippedRepository {
  if (!/^[a-z][a-z0-9+.-]*:\/\/[^/]*@/i.test(location)) return { repository: location, credentialsRemoved: false };
  let url: URL;
  try {
    url = new URL(location);
  } catch {
    // unreadable as a URL: cut everything between :// and the last @ before the path, by hand
    return { repository: location.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/]*@/i, '$1'), credentialsRemoved: true };
  }
  const web = WEB_SCHEMES.has(url.protocol);
  if (url.password === '' && (!web || url.username === '')) return { repository: location, credentialsRemoved: false };
  url.password = '';
  if (web) url.username = '';
  return { repository: url.toString(), credentialsRemoved: true };
}
