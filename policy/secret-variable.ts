// Which environment variable names hold credentials: expanding one puts a secret in the call.

const CREDENTIAL_WORDS = ['TOKEN', 'SECRET', 'SECRETS', 'PASSWORD', 'PASSWD', 'CREDENTIAL', 'CREDENTIALS', 'APIKEY'];

/**
 * Whether `name` looks like a credential: a `_`-separated word of it is TOKEN, SECRET, PASSWORD, …,
 * or it ends in `_KEY` (`OPENAI_API_KEY`, `AWS_SECRET_ACCESS_KEY`).
 * @example isCredentialVariable('GITHUB_TOKEN') // true
 */
export function isCredentialVariable(name: string): boolean {
  const upper = name.toUpperCase();
  return upper.endsWith('_KEY') || upper.split('_').some((word) => CREDENTIAL_WORDS.includes(word));
}
