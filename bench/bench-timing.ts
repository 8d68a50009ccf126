// Timing for the read-side benchmarks: wall and CPU time of one call, measured together.

/** Wall and CPU milliseconds of `fn`, and what it returned. */
export interface Timed<T> {
  ms: number;
  cpuMs: number;
  value: T;
}

/**
 * Run `fn` once and time it. CPU time (user + system of this process) is reported next to wall
 * time because the machines these run on are often shared: a ratio of CPU times moves less.
 */
export function timed<T>(fn: () => T): Timed<T> {
  const cpu = process.cpuUsage();
  const start = process.hrtime.bigint();
  const value = fn();
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  const used = process.cpuUsage(cpu);
  return { ms, cpuMs: (used.user + used.system) / 1000, value };
}

/** `timed` for work that returns a promise. */
export async function timedAsync<T>(fn: () => Promise<T>): Promise<Timed<T>> {
  const cpu = process.cpuUsage();
  const start = process.hrtime.bigint();
  const value = await fn();
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  const used = process.cpuUsage(cpu);
  return { ms, cpuMs: (used.user + used.system) / 1000, value };
}

/** `12 ms wall, 10 ms CPU` */
export function both(timing: { ms: number; cpuMs: number }): string {
  return `${timing.ms.toFixed(0)} ms wall, ${timing.cpuMs.toFixed(0)} ms CPU`;
}

/** Raw `JSON.parse` of every line of a file: the floor any reader of the journal stands on. */
export function rawParse(text: string): number {
  let count = 0;
  let start = 0;
  for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
    JSON.parse(text.slice(start, end));
    count += 1;
    start = end + 1;
  }
  return count;
}

/** `target ≤ 1.5x: met` / `NOT met (why)`; under --quick the sizes are too small to judge. */
export function verdict(target: string, met: boolean, quick: boolean, why = 'see docs/performance.md'): string {
  if (quick) return `target ${target}: not judged with --quick`;
  return met ? `target ${target}: met` : `target ${target}: NOT met (${why})`;
}
