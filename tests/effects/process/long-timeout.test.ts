import { describe, expect, it } from 'vitest';
import { MAX_TIMER_MS, setLongTimeout } from '../../../effects/process/long-timeout.js';

describe('setLongTimeout', () => {
  it('fires after a short delay like setTimeout', async () => {
    const fired = await new Promise<boolean>((resolve) => {
      setLongTimeout(() => resolve(true), 5);
    });
    expect(fired).toBe(true);
  });

  it('issue 20.1: a delay above 2^31 - 1 ms does not fire at once (Node would fire it after 1 ms)', async () => {
    let fired = false;
    const warnings: Error[] = [];
    const onWarning = (warning: Error): void => void warnings.push(warning);
    process.on('warning', onWarning);
    const timer = setLongTimeout(() => (fired = true), MAX_TIMER_MS + 60_000);
    // Node fires an overflowing timer after 1 ms; give it far more than that.
    await new Promise((resolve) => setTimeout(resolve, 50));
    timer.clear();
    process.off('warning', onWarning);
    expect(fired).toBe(false);
    expect(warnings.filter((w) => w.name === 'TimeoutOverflowWarning')).toEqual([]);
  });

  it('clear() stops it', async () => {
    let fired = false;
    setLongTimeout(() => (fired = true), 5).clear();
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(fired).toBe(false);
  });
});
