// A gate's ruling when the call runs script files (`sh clean.sh`, `./x`, `python x.py`, `make`): the
// classifier names the files whose text would decide (`wants`), the gate reads them into the scope
// and classifies again, a few rounds at most. The scope it ends with (the texts included) is what
// is journaled, so replay classifies the same text without reading any file.
import { readFileSync, realpathSync, statSync } from 'node:fs';
import type { Config } from '../../config/types.js';
import { ruleHookCall, type GatedCall, type HookRuling } from '../../policy/gate/rule-hook-call.js';
import type { StandingAnswers } from '../../policy/ruling/standing-answers.js';
import { secretReason } from '../../policy/paths/secret-path.js';
import type { ToolScope } from '../../policy/tool-scope.js';

/** Rounds of reading (a script that runs a script that runs one …). */
const MAX_ROUNDS = 3;
/** Files read for one call, at most. */
const MAX_FILES = 16;
/** A larger file is not read (its text stays unknown: the call stays `exec`). */
export const MAX_SCRIPT_BYTES = 64 * 1024;

/** The text of a script file: null when it is a secret, absent, not a regular file, too large, or not text. */
export function readScript(path: string): string | null {
  // Never a secret (`.env`, keys, the operator token), nor a link to one: what is read goes into the journal.
  if (secretReason(path) !== null) return null;
  try {
    if (secretReason(realpathSync(path)) !== null) return null;
    const stat = statSync(path, { throwIfNoEntry: false });
    if (stat === undefined || !stat.isFile() || stat.size > MAX_SCRIPT_BYTES) return null;
    const text = readFileSync(path, 'utf8');
    return text.includes('\u0000') ? null : text;
  } catch {
    return null;
  }
}

/** The ruling, and the scope it was made in (with the scripts read). */
export function ruleReadingScripts(call: GatedCall, scope: ToolScope, toolRules: Config['toolRules'], answers: StandingAnswers): HookRuling & { scope: ToolScope } {
  let current = scope;
  let ruled = ruleHookCall(call, current, toolRules, answers);
  for (let round = 0; round < MAX_ROUNDS; round += 1) {
    const read = Object.keys(current.scripts ?? {}).length;
    const wanted = (ruled.classification.wants ?? []).filter((path) => current.scripts?.[path] === undefined).slice(0, Math.max(0, MAX_FILES - read));
    if (wanted.length === 0) break;
    current = { ...current, scripts: { ...current.scripts, ...Object.fromEntries(wanted.map((path) => [path, readScript(path)])) } };
    ruled = ruleHookCall(call, current, toolRules, answers);
  }
  return { ...ruled, scope: current };
}
