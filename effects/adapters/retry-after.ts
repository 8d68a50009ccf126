// How long a rate-limited API asked us to wait, when its error said so.

const UNIT_MS: Record<string, number> = {
  ms: 1, millisecond: 1, milliseconds: 1,
  s: 1000, sec: 1000, secs: 1000, second: 1000, seconds: 1000,
  m: 60_000, min: 60_000, mins: 60_000, minute: 60_000, minutes: 60_000,
  h: 3_600_000, hour: 3_600_000, hours: 3_600_000,
};

const PATTERNS: RegExp[] = [
  /retryDelayMs["']?\s*[:=]\s*(\d+(?:\.\d+)?)()/i, // gemini's error object: retryDelayMs: 34000
  /"retryDelay"\s*:\s*"(\d+(?:\.\d+)?)(s)"/i, // google.rpc.RetryInfo
  /retry[- ]after["']?\s*[:=]?\s*(\d+(?:\.\d+)?)\s*(ms|s|seconds?|minutes?)?\b/i, // Retry-After header, "retry after 34s"
  /(?:try|retry) again in\s+(\d+(?:\.\d+)?)\s*(ms|s|secs?|seconds?|m|mins?|minutes?|h|hours?)\b/i, // "Please try again in 1.5s"
  /retry in\s+(\d+(?:\.\d+)?)\s*(ms|s|secs?|seconds?|m|mins?|minutes?|h|hours?)\b/i, // "Please retry in 34s"
];

/** Milliseconds to wait found in `text`, or null when it names no wait. A bare number is milliseconds only for `retryDelayMs`, else seconds. */
export function retryAfterMs(text: string): number | null {
  for (const [index, pattern] of PATTERNS.entries()) {
    const match = pattern.exec(text);
    if (!match) continue;
    const amount = Number(match[1]);
    const unit = (match[2] ?? '').toLowerCase();
    const scale = index === 0 ? 1 : unit === '' ? 1000 : UNIT_MS[unit];
    if (scale === undefined || !Number.isFinite(amount)) continue;
    return Math.round(amount * scale);
  }
  return null;
}
