// A routing sequence (DESIGN §15): every attempt of one unit of work (a goal, a story, a chunk, a
// loop run), attributed to the profile that started it, with what it cost and how it ended (pure).

/** One sequence as the ledger shows it. */
export interface RoutingSequence {
  run: string;
  /** lifecycle + role + policy digest: sequences compare only within one class */
  taskClass: string;
  /** the profile of the sequence's first attempt */
  profile: string;
  attempts: number;
  /** the unit of work ended accepted (the run succeeded) */
  accepted: boolean;
  /** the run finished (an unfinished or abandoned run is no evidence yet) */
  complete: boolean;
  /** summed cost; null when some call's cost is unknown */
  costUsd: number | null;
  /** some call was cut short, so its usage is partial */
  partial: boolean;
  durationMs: number;
}
