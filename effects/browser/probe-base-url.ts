// Whether anything answers at `base-url` before the first journey starts (a prerequisite: exit 2).

/** How long the probe waits for an answer. */
const PROBE_TIMEOUT_MS = 5_000;

/** null when the server answered (any HTTP status), else why it could not be reached. */
export async function probeBaseUrl(url: string): Promise<string | null> {
  try {
    const response = await fetch(url, { method: 'GET', redirect: 'manual', signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
    await response.body?.cancel();
    return null;
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    if (error instanceof Error && error.name === 'TimeoutError') return `no answer within ${PROBE_TIMEOUT_MS / 1000}s`;
    return cause ?? (error instanceof Error ? error.message : String(error));
  }
}
