// Writes a synthetic journal: the real loop machine folded with canned effect results.
import { parseConfig } from '../config/parse-config.js';
import { completionEvent } from '../machines/effect-events.js';
import type { EffectKind, EffectRequest, EffectResult } from '../machines/effects.js';
import { LOOP_MACHINE_VERSION, loopMachine, type LoopContext, type LoopInput } from '../machines/lifecycles/loop.js';
import { LIFECYCLE_REGISTRY } from '../machines/lifecycles/registry.js';
import { openFileJournal } from '../store/journal/file/open-file-journal.js';
import type { JournalRecord, RecordDraft } from '../store/journal/record.js';
import { RunFold } from '../store/fold/run-fold.js';
import { CheckpointTaker } from '../store/session/checkpoint-taker.js';

const SHA = 'a'.repeat(64);

function resultFor(request: EffectRequest, context: LoopContext, doneAt: number): EffectResult<EffectKind> {
  switch (request.kind) {
    case 'baseline.capture':
      return { specFiles: { 'plan.md': SHA, 'protocol.md': SHA, 'yoke.conf': SHA }, tree: 'b'.repeat(40) };
    case 'spec.restore':
      return { restored: [], displaced: {} };
    case 'agent.spawn':
      return { outcome: 'exited', exitCode: 0, signal: null, durationMs: 1234, transcript: `.journal/transcripts/${context.iteration}.log`,
        usage: { inputTokens: 1000, outputTokens: 200, cacheReadTokens: null, cacheWriteTokens: null, costUsd: null, model: 'bench' } };
    case 'notes.read':
      return { firstLine: context.iteration >= doneAt ? 'STATUS: DONE' : 'STATUS: IN_PROGRESS' };
    case 'boundary.scan':
      return { changed: ['src/a.ts'] };
    case 'check.run':
      return { outcome: 'exited', exitCode: 0, signal: null, durationMs: 12, excerpt: 'ok' };
    case 'acceptance.check':
      return { outcome: 'completed', status: 'passed', exitCode: 0, report: { path: `proof/${request.params.label}/report.json`, sha256: SHA }, criteria: [], sourceMatches: true };
    case 'file.write':
      return { sha256: SHA };
    case 'hook.fire':
      return { started: true };
    case 'commit.create':
      return { sha: 'c'.repeat(40) };
    case 'story.pass':
      return { sha: 'c'.repeat(40), prdBlob: 'b'.repeat(64) };
    case 'file.inspect':
      return { exists: true, firstLine: 'VERDICT: PASS', blank: false, stamp: null };
    case 'file.read':
      return { content: 'STATUS: DONE\n' };
    case 'notes.reset':
      return { changed: true };
    case 'clock.read':
      return { now: 0 };
    case 'wait.until':
      return { waitedMs: 0 };
    case 'context.read':
      return { block: '', files: [], guard: { 'PROJECT.md': null, 'DECISIONS.md': null } };
    case 'protect.scan':
      return { files: [] };
    case 'protect.restore':
      return { restored: [] };
    case 'worktree.create':
    case 'candidate.commit':
    case 'candidate.rebase':
    case 'candidate.reject':
    case 'story.land':
    case 'worktree.remove':
      throw new Error(`the loop machine never requests ${request.kind}`);
  }
}

/**
 * Write a journal of one loop run that ends after `iterations` iterations; returns its record
 * count. With `finished: false` the closing `run.finished` is left out (a run `yoke run` resumes).
 * `checkpoint`: save one to `sidecar` as the runner does, once `at` records are written.
 * `loopDir`: the workspace's `.loop` the run's input names.
 */
export async function writeSyntheticRun(
  path: string,
  iterations: number,
  options: { finished?: boolean; checkpoint?: { at: number; sidecar: string }; loopDir?: string } = {},
): Promise<number> {
  const parsed = parseConfig(`mode loop\nagent cmd true\nmax-iterations ${iterations}\nguard unit true\ncommit each\n`, 'bench.conf', LIFECYCLE_REGISTRY);
  if (!parsed.config) throw new Error('bench config invalid');
  const input: LoopInput = { config: parsed.config, workerPrompt: 'Iteration {{iteration}} of {{maxIterations}}.', loopDir: options.loopDir ?? '/bench/.loop', specFiles: ['plan.md', 'protocol.md', 'yoke.conf'] };
  const journal = await openFileJournal(path);
  const at = options.checkpoint;
  let taker: CheckpointTaker | null = at === undefined ? null : new CheckpointTaker(path, at.sidecar, () => journal.records);
  const meta = { run: '01BENCHRVN0000000000000000', machine: 'loop', mv: LOOP_MACHINE_VERSION };
  const started = journal.stage({ ...meta, type: 'run.started', payload: { mode: 'loop', input, argv: ['bench'] } }) as Extract<JournalRecord, { type: 'run.started' }>;
  const fold = new RunFold(loopMachine, started);
  const stage = (draft: Omit<RecordDraft, 'run' | 'machine' | 'mv'>) => fold.apply(journal.stage({ ...meta, ...draft } as RecordDraft));
  let count = 1;
  while (fold.active || fold.outstanding.length > 0) {
    const next = fold.outstanding[0];
    if (!next) break;
    const result = resultFor(next.request, fold.snapshot.context as LoopContext, iterations);
    stage({ type: 'effect.started', payload: { key: next.key, kind: next.request.kind, params: next.request.params, attempt: 1 } });
    stage({ type: 'effect.completed', payload: { key: next.key, kind: next.request.kind, result } });
    count += 2;
    const event = completionEvent(next.request, result);
    if (event) {
      stage({ type: 'event', payload: { cause: next.key, event } });
      count += 1;
    }
    if (count % 5000 < 3) await journal.flush();
    if (taker !== null && at !== undefined && count >= at.at) {
      // As the runner does: right after a flush, save the fold and journal the record vouching for it.
      await journal.flush();
      const digest = taker.take(fold, journal.durableHead);
      if (digest === null) throw new Error('the bench checkpoint was not taken');
      stage({ type: 'checkpoint', payload: { upTo: journal.durableHead.seq, digest } });
      count += 1;
      taker = null;
    }
  }
  if (options.finished === false) {
    await journal.close();
    return count;
  }
  stage({ type: 'run.finished', payload: { state: 'done', exitCode: 0, reason: 'done' } });
  await journal.close();
  return count + 1;
}
