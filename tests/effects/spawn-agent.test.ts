import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EffectAborted, type EffectContext } from '../../effects/handler.js';
import type { EffectParams } from '../../machines/effects.js';
import { isSameProcess } from '../../effects/process-identity.js';
import { spawnAgent } from '../../effects/spawn-agent.js';
import { liveGroupMembers } from '../../effects/terminate-group.js';
import { makeContext } from './support/effect-context.js';
import { makeProject, type TempProject } from './support/temp-project.js';

let p: TempProject;
beforeEach(async () => {
  p = await makeProject({}, { git: false });
});
afterEach(async () => {
  await p.cleanup();
});

function params(command: string, overrides: Partial<EffectParams<'agent.spawn'>> = {}): EffectParams<'agent.spawn'> {
  return { role: 'worker', iteration: 2, agent: { kind: 'cmd', command }, model: null, prompt: 'do the work\n', idleTimeoutMs: 0, ...overrides };
}
const loopText = (rel: string): Promise<string> => readFile(join(p.loopDir, rel), 'utf8');

describe('agent.spawn with the cmd adapter', () => {
  it('gives the prompt on stdin (then EOF), runs in the root, and streams output live and to a transcript', async () => {
    const t = makeContext(p.root, p.loopDir);
    const result = await spawnAgent.execute(params('cat; pwd; echo warn >&2'), t.ctx);
    expect(result).toMatchObject({ outcome: 'exited', exitCode: 0, signal: null, usage: null });
    expect(result.transcript).toBe('.journal/transcripts/2-worker-RUN1-7-0.log');
    expect(t.stdout()).toBe(`do the work\n${p.root}\n`);
    expect(t.stderr()).toBe('warn\n');
    const transcript = await loopText(result.transcript);
    expect(transcript.split('\n')[0]).toBe('# yoke worker agent, iteration 2, call RUN1/7/0: cat; pwd; echo warn >&2');
    expect(transcript).toContain(`do the work\n${p.root}\n`);
    expect(transcript).toContain('warn\n');
    expect(spawnAgent.policy).toBe('surface');
  });

  it('sets the YOKE_* environment with absolute paths, and a usage file that does not pre-exist', async () => {
    const usageDir = join(p.loopDir, '.journal', 'usage');
    await mkdir(usageDir, { recursive: true });
    await writeFile(join(usageDir, 'RUN1-7-0.json'), '{"input_tokens": 999}');
    const names = ['YOKE_CALL', 'YOKE_ITERATION', 'YOKE_LOOP_DIR', 'YOKE_MODEL', 'YOKE_ROLE', 'YOKE_RUN', 'YOKE_USAGE_FILE'];
    const dump = names.map((name) => `echo "${name}=$${name}"`).join('; ');
    const script = `{ ${dump}; } > "$YOKE_LOOP_DIR/env-seen"; test -e "$YOKE_USAGE_FILE" && echo pre-existing`;
    const t = makeContext(p.root, p.loopDir);
    const result = await spawnAgent.execute(params(script, { role: 'judge', iteration: 4, model: 'big-model' }), t.ctx);
    expect(t.stdout()).toBe('');
    expect(result.usage).toBeNull();
    expect((await loopText('env-seen')).trim().split('\n')).toEqual([
      'YOKE_CALL=RUN1/7/0',
      'YOKE_ITERATION=4',
      `YOKE_LOOP_DIR=${p.loopDir}`,
      'YOKE_MODEL=big-model',
      'YOKE_ROLE=judge',
      'YOKE_RUN=RUN1',
      `YOKE_USAGE_FILE=${join(usageDir, 'RUN1-7-0.json')}`,
    ]);
  });

  it('records the process identity right after spawn', async () => {
    let seenAlive = false;
    const t = makeContext(p.root, p.loopDir);
    const ctx: EffectContext = {
      ...t.ctx,
      recordProcess: (info) => {
        seenAlive = isSameProcess(info.pid, info.startTime);
        t.processes.push(info);
      },
    };
    await spawnAgent.execute(params('sleep 0.1'), ctx);
    expect(t.processes).toHaveLength(1);
    expect(seenAlive).toBe(true);
  });

  it('never overwrites a transcript: the same key twice gives two files', async () => {
    const t = makeContext(p.root, p.loopDir);
    const first = await spawnAgent.execute(params('echo one'), t.ctx);
    const second = await spawnAgent.execute(params('echo two'), t.ctx);
    expect(first.transcript).toBe('.journal/transcripts/2-worker-RUN1-7-0.log');
    expect(second.transcript).toBe('.journal/transcripts/2-worker-RUN1-7-0.2.log');
    expect(await loopText(first.transcript)).toContain('one\n');
    expect(await loopText(second.transcript)).toContain('two\n');
    expect(await readdir(join(p.loopDir, '.journal', 'transcripts'))).toHaveLength(2);
  });

  it('reads partial usage from $YOKE_USAGE_FILE as nulls, and warns about an invalid one', async () => {
    const t = makeContext(p.root, p.loopDir);
    const partial = await spawnAgent.execute(params(`echo '{"output_tokens": 42, "model": "m"}' > "$YOKE_USAGE_FILE"`), t.ctx);
    expect(partial.usage).toEqual({ inputTokens: null, outputTokens: 42, cacheReadTokens: null, cacheWriteTokens: null, costUsd: null, model: 'm' });
    const invalid = await spawnAgent.execute(params(`echo 'not json' > "$YOKE_USAGE_FILE"`), t.ctx);
    expect(invalid.usage).toBeNull();
    expect(t.warnings).toHaveLength(1);
    expect(t.warnings[0]).toContain(join(p.loopDir, '.journal', 'usage', 'RUN1-7-0.json'));
  });

  it('kills the agent after idleTimeoutMs without output and reports the exit code as recorded', async () => {
    const t = makeContext(p.root, p.loopDir);
    const idle = await spawnAgent.execute(params('echo started; sleep 100', { idleTimeoutMs: 300 }), t.ctx);
    expect(idle).toMatchObject({ outcome: 'idle-timeout', exitCode: null });
    const failed = await spawnAgent.execute(params('exit 7'), t.ctx);
    expect(failed).toMatchObject({ outcome: 'exited', exitCode: 7 });
  });

  it('on abort kills the agent group and rethrows EffectAborted, keeping the transcript', async () => {
    const t = makeContext(p.root, p.loopDir);
    const running = spawnAgent.execute(params('echo working; sleep 100 & sleep 100'), t.ctx);
    while (!t.stdout().includes('working')) await new Promise((resolve) => setTimeout(resolve, 10));
    t.abort.abort();
    await expect(running).rejects.toBeInstanceOf(EffectAborted);
    const [leader] = t.processes;
    expect(leader && isSameProcess(leader.pid, leader.startTime)).toBe(false);
    expect(liveGroupMembers(leader?.pid ?? 0)).toEqual([]);
    expect(await loopText('.journal/transcripts/2-worker-RUN1-7-0.log')).toContain('working\n');
  });

  it('refuses the built-in adapters for now with a clear message', async () => {
    const t = makeContext(p.root, p.loopDir);
    await expect(spawnAgent.execute(params('x', { agent: { kind: 'claude' } }), t.ctx)).rejects.toThrow(
      /claude agent adapter is not available yet/,
    );
    expect(t.processes).toEqual([]);
  });
});
