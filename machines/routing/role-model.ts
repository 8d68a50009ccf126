// The model of the judge's and the scoper's calls (DESIGN §15): their own `judge-model` /
// `scoper-model` line or profile, else the worker's model (they run the worker's agent then).
import type { Config } from '../../config/types.js';

/**
 * The model a judge or scoper call passes. `perProfile` (runs that route by sequence): a role that
 * names a profile runs with that profile's model or none, never the worker's; runs journaled
 * before fall back to the worker's model, as they did.
 */
export function roleModel(config: Config, role: 'judge' | 'scoper', perProfile: boolean): string | null {
  const own = role === 'judge' ? config.judgeModel : config.scoperModel;
  const profile = role === 'judge' ? config.judgeProfile : config.scoperProfile;
  if (perProfile && profile !== undefined) return own ?? null;
  return own ?? config.model ?? null;
}
