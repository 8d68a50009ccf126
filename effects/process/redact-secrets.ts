// Keeping secrets out of the journal: the output excerpts and details yoke journals are redacted
// with the values of secret-looking environment variables, read when the command runs.
//
// Determinism: redaction happens in the executor, before the result is journaled, so the journal
// holds only the redacted text and replay reads exactly that. Which names count is decided by
// this rule and the run's config (`redact` directives, journaled in the effect's params); the
// values come from the environment of the command at execution time and are never journaled.

/** Names that look secret (`*KEY*`, `*TOKEN*`, `*SECRET*`, `*PASSWORD*`, `*CREDENTIAL*`), any case. */
export const SECRET_NAME = /KEY|TOKEN|SECRET|PASSWORD|CREDENTIAL/i;

/** Shorter values are not redacted: they would hit ordinary words and numbers. */
export const MIN_SECRET_CHARS = 6;

/** A fragment this long of a secret, cut off at an excerpt's edge (`…`), is redacted too. */
const MIN_FRAGMENT_CHARS = 3;

/** One value to keep out of journaled text, and the variable it came from. */
export interface SecretValue {
  name: string;
  value: string;
}

/** The forms a value may take in output: as is, trimmed, with whitespace runs collapsed (one-line details), and each of its lines. */
function forms(value: string): string[] {
  return [value, value.trim(), value.replace(/\s+/g, ' ').trim(), ...value.split(/\r?\n/).map((line) => line.trim())];
}

/**
 * The secret values in `env`: variables whose names look secret or are listed in `extraNames`
 * (`redact` directives), at least {@link MIN_SECRET_CHARS} characters long, longest first.
 * @example secretValues({ SECRET_TOKEN: 'abc123', HOME: '/root' }) // [{ name: 'SECRET_TOKEN', value: 'abc123' }]
 */
export function secretValues(env: NodeJS.ProcessEnv, extraNames: readonly string[] = []): SecretValue[] {
  const found = new Map<string, string>();
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || !(SECRET_NAME.test(name) || extraNames.includes(name))) continue;
    for (const form of forms(value)) if (form.length >= MIN_SECRET_CHARS && !found.has(form)) found.set(form, name);
  }
  return [...found].map(([value, name]) => ({ name, value })).sort((a, b) => b.value.length - a.value.length || (a.value < b.value ? -1 : 1));
}

/** `lists` as one, each value once (its first name), longest first: what {@link redactSecrets} takes. */
export function combineSecrets(...lists: readonly (readonly SecretValue[])[]): SecretValue[] {
  const found = new Map<string, string>();
  for (const secret of lists.flat()) if (!found.has(secret.value)) found.set(secret.value, secret.name);
  return [...found].map(([value, name]) => ({ name, value })).sort((a, b) => b.value.length - a.value.length || (a.value < b.value ? -1 : 1));
}

/** What a redacted value is replaced with. */
export function redactionMark(name: string): string {
  return `[redacted $${name}]`;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * `text` with every occurrence of a secret value replaced by {@link redactionMark} (one pass,
 * longest value first, so a mark is never redacted again), and with a fragment of a secret that
 * an excerpt's cut (`…` at its start or end) left at the edge replaced too.
 * @example redactSecrets('token=abc123', [{ name: 'SECRET_TOKEN', value: 'abc123' }]) // 'token=[redacted $SECRET_TOKEN]'
 */
export function redactSecrets(text: string, secrets: readonly SecretValue[]): string {
  if (secrets.length === 0 || text === '') return text;
  const cutBefore = text.startsWith('…') ? '…' : '';
  let body = text.slice(cutBefore.length);
  const cutAfter = body.endsWith('…') ? '…' : '';
  body = body.slice(0, body.length - cutAfter.length);
  const head = cutBefore === '' ? null : longestFragment(secrets, (secret, k) => body.startsWith(secret.value.slice(secret.value.length - k)));
  const tail = cutAfter === '' ? null : longestFragment(secrets, (secret, k) => body.endsWith(secret.value.slice(0, k)));
  const headLength = head?.length ?? 0;
  const tailLength = tail?.length ?? 0;
  if (headLength + tailLength > body.length) return `${cutBefore}${redactionMark((head ?? tail)?.name ?? 'secret')}${cutAfter}`;
  const byValue = new Map(secrets.map((secret) => [secret.value, secret.name]));
  const pattern = new RegExp(secrets.map((secret) => escapeRegExp(secret.value)).join('|'), 'g');
  const middle = body.slice(headLength, body.length - tailLength).replace(pattern, (value) => redactionMark(byValue.get(value) ?? 'secret'));
  return `${cutBefore}${head ? redactionMark(head.name) : ''}${middle}${tail ? redactionMark(tail.name) : ''}${cutAfter}`;
}

/** The longest proper fragment (at least MIN_FRAGMENT_CHARS long) of any secret that `matches` accepts. */
function longestFragment(secrets: readonly SecretValue[], matches: (secret: SecretValue, length: number) => boolean): { name: string; length: number } | null {
  let best: { name: string; length: number } | null = null;
  for (const secret of secrets) {
    for (let k = secret.value.length - 1; k >= MIN_FRAGMENT_CHARS && (best === null || k > best.length); k -= 1) {
      if (matches(secret, k)) {
        best = { name: secret.name, length: k };
        break;
      }
    }
  }
  return best;
}
