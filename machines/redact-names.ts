// The `redact` names a command's effect params carry, so its executor knows which values to keep out of the journal.
import type { Config } from '../config/types.js';

/** The `redact` names for a command's params, absent when there are none (so older journals re-derive the same params). */
export function redactNames(config: Config): { redact?: string[] } {
  return config.redact !== undefined && config.redact.length > 0 ? { redact: config.redact } : {};
}
