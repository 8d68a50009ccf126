// What the acceptance check executor may use besides its params: the same things an effect
// handler gets (effects/handler.ts), plus the environment it reads and where progress goes.
import type { EffectContext } from '../handler.js';
import type { SecretValue } from '../process/redact-secrets.js';

/** The executor's context; an `acceptance.check` handler builds it from its EffectContext. */
export interface CheckContext extends Pick<EffectContext, 'root' | 'loopDir' | 'output' | 'signal' | 'warn'> {
  /** the environment criterion commands inherit, and `value-env` values and YOKE_CHROMIUM are read from */
  env: NodeJS.ProcessEnv;
  /** one line about the check's progress (a criterion started or ended) */
  progress(line: string): void;
  /** values yoke holds itself that kept output must never contain (the journal store's password); absent = none */
  secrets?: readonly SecretValue[];
  /** the running yoke's version, for the report */
  yokeVersion: string;
}
