// A timer that may be longer than Node's limit: setTimeout holds at most 2^31 - 1 ms and fires a
// longer delay after 1 ms (TimeoutOverflowWarning), which would kill a process at once.

/** The longest delay one `setTimeout` honours. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** A pending long timer. */
export interface LongTimeout {
  clear(): void;
}

/**
 * Call `fire` after `ms` milliseconds, however long that is, by chaining timers of at most
 * {@link MAX_TIMER_MS}. yoke.conf caps timeouts below that limit; this keeps a longer value from a
 * journal written before the cap meaning what it says.
 */
export function setLongTimeout(fire: () => void, ms: number): LongTimeout {
  let timer: NodeJS.Timeout | undefined;
  let cleared = false;
  const deadline = performance.now() + ms;
  const arm = (left: number): void => {
    timer = setTimeout(() => {
      const rest = deadline - performance.now();
      if (cleared) return;
      if (rest > 0) arm(rest);
      else fire();
    }, Math.min(Math.max(0, left), MAX_TIMER_MS));
  };
  arm(ms);
  return {
    clear() {
      cleared = true;
      clearTimeout(timer);
    },
  };
}
