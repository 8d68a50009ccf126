// Spec §4 (the saga), end to end: the built CLI in real temp git repos with the shell agent
// (support/shell-agent.ts: the nth call of a role does its nth step; a saga's chunks restart their
// iterations at 1 and the scoper is always iteration 0, so calls are told apart by order).
import { afterAll, describe, expect, it } from 'vitest';
import { callLabels, makeJudgedWorkspace } from '../support/judged-workspace.js';
import { readJournal } from '../support/journal-records.js';
import type { ShellAct, ShellScript } from '../support/shell-agent.js';
import { type Workspace, runYoke } from '../support/workspace.js';

const TIMEOUT = 40_000;
const workspaces: Workspace[] = [];

async function setup(conf: string[], script: ShellScript, files: Record<string, string> = {}): Promise<{ ws: Workspace; env: Record<string, string> }> {
  const made = await makeJudgedWorkspace({ mode: 'saga', conf, script, files });
  workspaces.push(made.ws);
  return made;
}

// Tests run concurrently (vitest uses one worker on small machines; the time is spent waiting on
// processes), so workspaces are cleaned up once the file is done.
afterAll(async () => {
  if (process.env.KEEP_E2E === '1') return;
  await Promise.all(workspaces.splice(0).map((ws) => ws.cleanup()));
});

const subPlan = (n: number, extra = ''): string => `# Chunk ${n}${extra}\n\nDo part ${n} of the specification.\n`;
/** The scoper writes chunk `n` to sub-plan.md and keeps the saga going. */
const scope = (n: number, extra = ''): ShellAct => ({ write: { '.loop/sub-plan.md': subPlan(n, extra), '.loop/saga-notes.md': `STATUS: IN_PROGRESS\nchunk ${n} scoped\n` } });
/** The scoper ends the saga. */
const finish: ShellAct = { write: { '.loop/saga-notes.md': 'STATUS: DONE\nthe specification is implemented\n' } };
const verdict = (first: string, reason: string): ShellAct => ({ write: { '.loop/verdict.md': `${first}\n${reason}\n` } });
const PASS = verdict('VERDICT: PASS', 'good');

describe.concurrent('spec §4: the saga', () => {
  it('4.1 saga completion checks saga-notes, not notes', async () => {
    const { ws, env } = await setup(['max-chunks 5', 'max-iterations 3', 'max-judge-failures 2'], {
      scoper: [scope(1), scope(2), finish],
      // chunk 1 ends with notes.md saying DONE: the saga goes on; chunk 2 never says DONE (cap)
      worker: [{ notes: 'DONE' }, { notes: 'IN_PROGRESS' }, { notes: 'IN_PROGRESS' }, { notes: 'IN_PROGRESS' }],
      after: { judge: PASS },
    });

    const result = await runYoke(ws, ['run'], { env });

    // saga-notes.md said DONE while notes.md said IN_PROGRESS: the saga ended with success
    expect(result.exitCode, result.stderr).toBe(0);
    expect(await callLabels(ws)).toEqual(['scoper', 'worker#1', 'judge#1', 'scoper', 'worker#1', 'worker#2', 'worker#3', 'scoper']);
    expect(await ws.read('.loop/notes.md')).toMatch(/^STATUS: IN_PROGRESS\n/);
    expect(result.stderr).toMatch(/saga done after 2 chunk\(s\): saga-notes\.md says DONE/);
  }, TIMEOUT);

  it('4.2 brute bailout triggers re-scoping, not abort', async () => {
    const { ws, env } = await setup(['max-chunks 5', 'max-iterations 5', 'max-judge-failures 1'], {
      scoper: [
        scope(1),
        // the scoper reads why the chunk failed, and scopes it again, smaller
        [{ record: { '.loop/verdict.md': 'scoper-2/verdict.md', '.loop/notes.md': 'scoper-2/notes.md' } }, scope(1, ' (smaller)')],
        finish,
      ],
      after: { worker: { notes: 'DONE' } },
      judge: [verdict('VERDICT: FAIL', 'the chunk is too big'), PASS],
    });

    const result = await runYoke(ws, ['run'], { env });

    expect(result.exitCode, result.stderr).toBe(0);
    expect(await callLabels(ws)).toEqual(['scoper', 'worker#1', 'judge#1', 'scoper', 'worker#1', 'judge#1', 'scoper']);
    expect(await ws.sideText('scoper-2/verdict.md')).toBe('VERDICT: FAIL\nthe chunk is too big\n');
    expect(await ws.sideText('scoper-2/notes.md')).toMatch(/^STATUS: IN_PROGRESS\n/);
    expect(result.stderr).toMatch(/the judge said FAIL|judge says FAIL, 1 of 1 consecutive/);
  }, TIMEOUT);

  it('4.3 sub-plan must be non-empty', async () => {
    const { ws, env } = await setup(['max-chunks 5'], { scoper: [{ write: { '.loop/sub-plan.md': '\n   \n\t\n', '.loop/saga-notes.md': 'STATUS: IN_PROGRESS\n' } }] });

    const result = await runYoke(ws, ['run'], { env });

    expect(result.exitCode, result.stderr).toBe(1);
    expect(await callLabels(ws)).toEqual(['scoper']);
    expect(result.stderr).toMatch(/saga aborted: the scoper left \.loop\/sub-plan\.md empty/);
    const finished = (await readJournal(ws)).filter((r) => r.type === 'run.finished').map((r) => r.payload);
    expect(finished).toEqual([expect.objectContaining({ exitCode: 1, reason: 'empty-sub-plan' })]);
  }, TIMEOUT);

  it('4.4 chunk state persists and is logged', async () => {
    const { ws, env } = await setup(['max-chunks 5', 'max-iterations 3', `guard part sh -c 'echo "guard-of-$(cat part.txt)"'`], {
      scoper: [
        scope(1),
        [{ record: { '.loop/notes.md': 'scoper-2/notes.md', '.loop/verdict.md': 'scoper-2/verdict.md', '.loop/guard-results.md': 'scoper-2/guard-results.md', '.loop/saga-log.md': 'scoper-2/saga-log.md' } }, scope(2)],
        finish,
      ],
      worker: [
        { write: { 'part.txt': 'one\n' }, notes: { status: 'DONE', body: 'chunk-1 worker notes\n' } },
        [{ record: { '.loop/notes.md': 'worker-chunk-2/notes.md', '.loop/verdict.md': 'worker-chunk-2/verdict.md' } }, { write: { 'part.txt': 'two\n' }, notes: { status: 'DONE', body: 'chunk-2 worker notes\n' } }],
      ],
      judge: [verdict('VERDICT: PASS', 'chunk-1 verdict'), verdict('VERDICT: PASS', 'chunk-2 verdict')],
    });

    const result = await runYoke(ws, ['run', '--quiet'], { env });

    expect(result.exitCode, result.stderr).toBe(0);
    // the scoper reads why chunk 1 succeeded: nothing of it was cleared
    expect(await ws.sideText('scoper-2/notes.md')).toBe('STATUS: DONE\nchunk-1 worker notes\n');
    expect(await ws.sideText('scoper-2/verdict.md')).toBe('VERDICT: PASS\nchunk-1 verdict\n');
    expect(await ws.sideText('scoper-2/guard-results.md')).toContain('guard-of-one');
    // chunk 1's notes were logged before chunk 2
    expect(await ws.sideText('scoper-2/saga-log.md')).toMatch(/## Chunk 1\n\nSTATUS: DONE\nchunk-1 worker notes\n/);
    // chunk 2's worker starts with chunk 1's notes and verdict still there
    expect(await ws.sideText('worker-chunk-2/notes.md')).toBe('STATUS: DONE\nchunk-1 worker notes\n');
    expect(await ws.sideText('worker-chunk-2/verdict.md')).toBe('VERDICT: PASS\nchunk-1 verdict\n');
    // and after the saga the last chunk's state is still on disk
    expect(await ws.read('.loop/notes.md')).toBe('STATUS: DONE\nchunk-2 worker notes\n');
    expect(await ws.read('.loop/verdict.md')).toBe('VERDICT: PASS\nchunk-2 verdict\n');
    expect(await ws.read('.loop/guard-results.md')).toContain('guard-of-two');
  }, TIMEOUT);

  it('4.5 saga log is append-only', async () => {
    const recordLog = (n: number): ShellAct => ({ record: { '.loop/saga-log.md': `log-before-scoper-${n}.md` } });
    const { ws, env } = await setup(['max-chunks 5', 'max-iterations 2', 'max-judge-failures 1'], {
      scoper: [scope(1), [recordLog(2), scope(2)], [recordLog(3), scope(3)], [recordLog(4), finish]],
      worker: [1, 2, 3].map((n) => ({ notes: { status: 'DONE', body: `notes of chunk ${n}\nsecond line ${n}\n` } })),
      // chunk 2 fails: its notes are logged all the same
      judge: [PASS, verdict('VERDICT: FAIL', 'no'), PASS],
    });

    const result = await runYoke(ws, ['run', '--quiet'], { env });

    expect(result.exitCode, result.stderr).toBe(0);
    const logs = await Promise.all([2, 3, 4].map((n) => ws.sideText(`log-before-scoper-${n}.md`)));
    const final = await ws.read('.loop/saga-log.md');
    expect(logs[2]).toBe(final);
    // every version extends the one before, byte for byte
    expect(logs[1]?.startsWith(logs[0] ?? '\u0000')).toBe(true);
    expect(logs[2]?.startsWith(logs[1] ?? '\u0000')).toBe(true);
    const headings = (text: string | null | undefined): number[] => [...(text ?? '').matchAll(/^## Chunk (\d+)$/gm)].map((m) => Number(m[1]));
    expect(logs.map(headings)).toEqual([[1], [1, 2], [1, 2, 3]]);
    // each entry is that chunk's notes as it ended (chunk 2's FAIL reset its status line)
    for (const [n, status] of [[1, 'DONE'], [2, 'IN_PROGRESS'], [3, 'DONE']] as const) {
      expect(final).toContain(`## Chunk ${n}\n\nSTATUS: ${status}\nnotes of chunk ${n}\nsecond line ${n}\n`);
    }
  }, TIMEOUT);

  it('max-chunks caps the saga: exit 1 once the cap is reached without saga-notes.md saying DONE', async () => {
    const { ws, env } = await setup(['max-chunks 2', 'max-iterations 2'], {
      after: { scoper: { sh: 'printf "# Chunk %s\\n\\nmore\\n" "$N" > .loop/sub-plan.md' }, worker: { notes: 'DONE' }, judge: PASS },
    });

    const result = await runYoke(ws, ['run'], { env });

    expect(result.exitCode, result.stderr).toBe(1);
    expect(await callLabels(ws)).toEqual(['scoper', 'worker#1', 'judge#1', 'scoper', 'worker#1', 'judge#1', 'scoper']);
    expect(result.stderr).toMatch(/saga stopped: reached max-chunks \(2\) before saga-notes\.md said DONE/);
    expect((await ws.read('.loop/saga-log.md')).match(/^## Chunk \d+$/gm)).toEqual(['## Chunk 1', '## Chunk 2']);
  }, TIMEOUT);

  // BUG (reported): machines/lifecycles/saga.ts writingLog renders saga-log.md from this run's chunks only
  // (renderSagaLog(context.sagaLog)), so a log already in .loop/ when the saga starts (a previous
  // saga's, kept because yoke never clears it) is replaced at the first chunk's end.
  it('4.5 a saga-log.md that exists when the saga starts is appended to, never replaced', async () => {
    const earlier = '# Saga log\n\n## Chunk 1\n\nnotes from the previous saga\n';
    const { ws, env } = await setup(['max-chunks 3', 'max-iterations 1'], {
      scoper: [scope(1), finish],
      after: { worker: { notes: 'DONE' }, judge: PASS },
    }, { '.loop/saga-log.md': earlier });

    const result = await runYoke(ws, ['run', '--quiet'], { env });

    expect(result.exitCode, result.stderr).toBe(0);
    const log = await ws.read('.loop/saga-log.md');
    expect(log.startsWith(earlier), log).toBe(true);
  }, TIMEOUT);

  // BUG (reported): in a saga the chunk's plan is sub-plan.md (DESIGN §1), but it is not among the
  // spec files restored before every iteration (machines/lifecycles/saga.ts init.spec; iteration-states.ts
  // `restoring` restores only the run-start baseline), so a worker can rewrite its own plan and the
  // next iteration follows the rewrite (spec 1.1).
  it('1.1 in a saga chunk, a worker’s edit of sub-plan.md does not reach the next iteration', async () => {
    const { ws, env } = await setup(['max-chunks 3', 'max-iterations 3'], {
      scoper: [scope(1), finish],
      worker: [
        { write: { '.loop/sub-plan.md': '# Chunk 1\n\nNothing left to do: just say DONE.\n' }, notes: 'IN_PROGRESS' },
        [{ record: { '.loop/sub-plan.md': 'sub-plan-seen-2.md' } }, { notes: 'DONE' }],
      ],
      after: { judge: PASS },
    });

    const result = await runYoke(ws, ['run', '--quiet'], { env });

    expect(result.exitCode, result.stderr).toBe(0);
    expect(await ws.sideText('sub-plan-seen-2.md')).toBe(subPlan(1));
  }, TIMEOUT);
});
