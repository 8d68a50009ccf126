import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EffectAborted } from '../../../effects/handler.js';
import type { EffectParams } from '../../../machines/effects.js';
import { runCheck } from '../../../effects/handlers/check-run.js';
import { makeContext } from '../support/effect-context.js';
import { makeProject, type TempProject } from '../support/temp-project.js';

let p: TempProject;
beforeEach(async () => {
  p = await makeProject({}, { git: false });
});
afterEach(async () => {
  await p.cleanup();
});

function params(command: string, timeoutMs = 0): EffectParams<'check.run'> {
  return { kind: 'guard', name: 'tests', command, iteration: 5, timeoutMs };
}

describe('check.run', () => {
  it('runs in the root with YOKE_RUN/ITERATION/LOOP_DIR and keeps combined output as the excerpt', async () => {
    const t = makeContext(p.root, p.loopDir);
    const result = await runCheck.execute(params('echo "$YOKE_RUN $YOKE_ITERATION $YOKE_LOOP_DIR $(pwd)"; echo bad >&2; exit 1'), t.ctx);
    expect(result).toMatchObject({ outcome: 'exited', exitCode: 1, signal: null });
    expect(result.excerpt).toBe(`RUN1 5 ${p.loopDir} ${p.root}\nbad\n`);
    expect(t.stdout()).toBe(`RUN1 5 ${p.loopDir} ${p.root}\n`);
    expect(t.stderr()).toBe('bad\n');
    expect(runCheck.policy).toBe('retry');
  });

  it('keeps only the last 3000 characters, marked with …', async () => {
    const t = makeContext(p.root, p.loopDir);
    const result = await runCheck.execute(params('seq 1 5000; echo END'), t.ctx);
    expect(result.excerpt.startsWith('…')).toBe(true);
    expect(Array.from(result.excerpt)).toHaveLength(3001);
    expect(result.excerpt.endsWith('4999\n5000\nEND\n')).toBe(true);
  });

  it('kills the whole group at the timeout', async () => {
    const t = makeContext(p.root, p.loopDir);
    const result = await runCheck.execute(params('echo begun; sleep 100 & sleep 100', 300), t.ctx);
    expect(result).toMatchObject({ outcome: 'timed-out', exitCode: null, signal: 'SIGTERM' });
    expect(result.excerpt).toBe('begun\n');
    expect(result.durationMs).toBeLessThan(3_000);
  });

  it('has its stdin closed, and rejects with EffectAborted on abort', async () => {
    const t = makeContext(p.root, p.loopDir);
    expect((await runCheck.execute(params('cat'), t.ctx)).exitCode).toBe(0);
    const running = runCheck.execute(params('sleep 100'), t.ctx);
    setTimeout(() => t.abort.abort(), 100);
    await expect(running).rejects.toBeInstanceOf(EffectAborted);
  });
});
