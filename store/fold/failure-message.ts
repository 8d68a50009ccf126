// The message an `effect.failed` record keeps: the error's, without secrets.
import { combineSecrets, redactSecrets, secretValues, type SecretValue } from '../../effects/process/redact-secrets.js';
import type { EffectRequest } from '../../machines/effects.js';

/**
 * `error`'s message, redacted as output excerpts are: it may quote a command's output (a failed
 * git commit carries the stderr of the project's hooks). The values of secret-looking environment
 * variables, of the request's `redact` names, and `secrets` (the store's password) are replaced.
 */
export function failureMessage(error: unknown, request: EffectRequest, secrets: readonly SecretValue[] = []): string {
  const message = error instanceof Error ? error.message : String(error);
  const params = request.params as { redact?: unknown };
  const names = Array.isArray(params.redact) ? params.redact.filter((name): name is string => typeof name === 'string') : [];
  return redactSecrets(message, combineSecrets(secretValues(process.env, names), secrets));
}
