// effects/acceptance/run-criterion-command.ts: a criterion runs like a guard; its kept tail never
// holds a fill value, not even one cut in half by the start of the excerpt.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CheckContext } from '../../../effects/acceptance/check-context.js';
import { CHECK_ENV, runCriterionCommand } from '../../../effects/acceptance/run-criterion-command.js';
import { createRedactor } from '../../../effects/acceptance/secret-redactor.js';
import { makeContext } from '../support/effect-context.js';
import { makeProject, type TempProject } from '../support/temp-project.js';

let p: TempProject;
beforeEach(async () => {
  p = await makeProject({}, { git: false });
});
afterEach(() => p.cleanup());

function context(env: NodeJS.ProcessEnv = {}): { ctx: CheckContext; stdout: () => string } {
  const base = makeContext(p.root, p.loopDir);
  return { ctx: { ...base.ctx, env: { PATH: process.env.PATH, ...env }, progress: () => undefined, yokeVersion: 'test' }, stdout: base.stdout };
}

describe('runCriterionCommand', () => {
  it('runs in the project root with YOKE_CHECK and YOKE_CRITERION, streams its output, keeps a redacted tail', async () => {
    const { ctx, stdout } = context({ SECRET: 's3cr3t-value' });
    const seen = await runCriterionCommand({ name: 'tests', command: `echo "$${CHECK_ENV} $YOKE_CRITERION $(pwd) $SECRET"; exit 3`, timeoutMs: 0 }, 'latest', ctx, createRedactor(['s3cr3t-value']));
    expect(seen).toMatchObject({ outcome: 'exited', exitCode: 3, outputTail: `latest tests ${p.root} [redacted]\n` });
    expect(stdout()).toBe(`latest tests ${p.root} s3cr3t-value\n`);
  });

  it('a secret straddling the start of the excerpt is not left half visible', async () => {
    const { ctx } = context();
    const secret = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
    // the secret ends 10 characters into the last 3000: a plain tail would keep "QRSTUVWXYZ"
    const seen = await runCriterionCommand({ name: 't', command: `head -c 100 /dev/zero | tr '\\0' y; printf '%s' '${secret}'; head -c 2990 /dev/zero | tr '\\0' x`, timeoutMs: 0 }, 'latest', ctx, createRedactor([secret]));
    expect(seen.outputTail).toBe(`…[redacted]${'x'.repeat(2990)}`);
  });

  it('a command that outlives its timeout is timed out', async () => {
    const { ctx } = context();
    const seen = await runCriterionCommand({ name: 't', command: 'sleep 5', timeoutMs: 200 }, 'latest', ctx, createRedactor([]));
    expect(seen).toMatchObject({ outcome: 'timed-out', exitCode: null });
  });
});
