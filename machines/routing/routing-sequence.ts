// A routing sequence (DESIGN §15): every attempt of one unit of work (a story, a saga chunk, a goal,
// a loop run), attributed to the profile that started it, with what it cost and how it ended (pure).

/** One sequence as the ledger shows it. */
export interface RoutingSequence {
  run: string;
  /** which unit of the run: `story:<id>`, `chunk:<n>`, or `run` (a loop, brute or goal run, or a whole run under the older rules) */
  unit: string;
  /** lifecycle + role + policy digest: sequences compare only within one class */
  taskClass: string;
  /** the profile of the sequence's first attempt */
  profile: string;
  attempts: number;
  /** the unit of work ended accepted (it passed its gates; a loop, brute or goal run: the run succeeded) */
  accepted: boolean;
  /** the unit ended (passed, blocked, judged, or its run finished); an open or abandoned one is no evidence yet */
  complete: boolean;
  /** summed cost; null when some call's cost is unknown */
  costUsd: number | null;
  /** some call reported no token counts (its usage is partial or unknown) */
  unknownTokens: boolean;
  /** some call was cut short, so its usage is partial */
  partial: boolean;
  /** some call ended in an infrastructure failure (a crash, a timeout, a server error): no evidence of the model */
  infrastructure: boolean;
  durationMs: number;
}
