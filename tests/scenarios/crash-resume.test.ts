// Crash tests: kill -9 yoke right after each kind of journal record, run `yoke run` again, and the
// run ends exactly as an uncrashed one: same files, same exit code, same commits, and no completed
// agent call or guard executed twice. Crashes are injected with YOKE_FAILPOINT (store/journal/failpoint.ts)
// so every crash lands at an exact journal position.
//
// The scripted agent behaves like a real one: it looks at the files before acting, so a call that
// is re-run after an interruption (the journal says "interrupted", never "completed") continues
// from what the cut-short call left behind instead of doing the same edit twice.
import { chmodSync, existsSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readJournal, type JournalRecord } from '../support/journal-records.js';
import { isAlive as pidAlive } from '../support/process-liveness.js';
import { makeWorkspace, runYoke, type Workspace } from '../support/workspace.js';

const AGENT = `#!/bin/sh
cat >/dev/null
echo "$YOKE_CALL $YOKE_ITERATION $$" >> "$SIDE/agent-calls.log"
if [ "$YOKE_ITERATION" = 2 ] && [ -f "$SIDE/slow" ]; then
  rm -f "$SIDE/slow"
  sleep 30 &
  echo "$$ $!" > "$SIDE/slow-pids"
  wait
fi
case "$YOKE_ITERATION" in
  1) echo one > work.txt; printf 'STATUS: IN_PROGRESS\\nstarted\\n' > .loop/notes.md ;;
  2) grep -qx two work.txt || echo two >> work.txt; printf 'STATUS: IN_PROGRESS\\nmore\\n' > .loop/notes.md ;;
  *) printf 'STATUS: DONE\\nfinished\\n' > .loop/notes.md ;;
esac
`;

async function crashWorkspace(): Promise<Workspace> {
  const ws = await makeWorkspace(({ sideDir }) => ({
    '.loop/yoke.conf': [
      'mode loop',
      `agent cmd SIDE=${sideDir} sh ${sideDir}/agent.sh`,
      'max-iterations 5',
      `guard check sh -c 'echo "$YOKE_RUN $YOKE_ITERATION" >> ${sideDir}/guard-calls.log; test -s work.txt'`,
      'commit each',
      '',
    ].join('\n'),
    '.loop/plan.md': '# Plan\nwrite work.txt\n',
    '.loop/protocol.md': '# Protocol\none step at a time\n',
    '.loop/notes.md': 'STATUS: IN_PROGRESS\n',
    '.loop/.gitignore': '.journal/\n.stash/\n',
  }));
  writeFileSync(ws.side('agent.sh'), AGENT);
  chmodSync(ws.side('agent.sh'), 0o755);
  return ws;
}

/** What must be identical between a crashed-and-resumed run and an uncrashed one. */
async function outcome(ws: Workspace): Promise<Record<string, unknown>> {
  return {
    work: await ws.read('work.txt'),
    notes: await ws.read('.loop/notes.md'),
    guardResults: (await ws.read('.loop/guard-results.md')).replace(/\d+\.\d+s\)/g, 'Ns)').replaceAll(ws.sideDir, '<side>'),
    plan: await ws.read('.loop/plan.md'),
    commits: (await ws.gitLog()).map((entry) => entry.subject),
    status: (await ws.git(['status', '--porcelain'])).trim(),
  };
}

function completedAgentKeys(records: JournalRecord[]): string[] {
  return records
    .filter((r) => r.type === 'effect.completed' && (r.payload as { kind: string }).kind === 'agent.spawn')
    .map((r) => (r.payload as { key: string }).key);
}

/**
 * No completed agent call or guard ran twice. `guardCutShort`: the crash came while a guard ran (its
 * process was journaled, its result not), so that one guard ran again on resume (`retry`), once more.
 */
async function assertNothingRanTwice(ws: Workspace, guardCutShort = false): Promise<void> {
  const calls = (await ws.sideLines('agent-calls.log')).map((line) => line.split(' ')[0]);
  expect(new Set(calls).size).toBe(calls.length);
  const completed = completedAgentKeys(await readJournal(ws));
  expect(completed).toHaveLength(3);
  for (const key of completed) expect(calls.filter((call) => call === key)).toHaveLength(1);
  const guards = await ws.sideLines('guard-calls.log');
  expect(new Set(guards).size).toBe(3);
  expect(guards).toHaveLength(guardCutShort ? 4 : 3);
}

describe('crash and resume', () => {
  let reference: { outcome: Record<string, unknown>; records: JournalRecord[] };

  beforeAll(async () => {
    const ws = await crashWorkspace();
    const result = await runYoke(ws, ['run', '--quiet']);
    expect(result.exitCode, result.stderr).toBe(0);
    reference = { outcome: await outcome(ws), records: await readJournal(ws) };
    await assertNothingRanTwice(ws);
    await ws.cleanup();
  });

  afterAll(() => undefined);

  /** One crash point per record kind and effect kind, plus the seam between iterations. */
  function crashPoints(): Array<{ seq: number; label: string }> {
    const seen = new Set<string>();
    const points: Array<{ seq: number; label: string }> = [];
    const kindOf = new Map<string, string>();
    for (const record of reference.records) {
      const payload = record.payload as { key?: string; kind?: string; cause?: string; event?: { type: string } };
      if (record.type === 'effect.started' && payload.key && payload.kind) kindOf.set(payload.key, payload.kind);
      const kind = payload.kind ?? (payload.key ? kindOf.get(payload.key) : undefined) ?? payload.event?.type ?? '';
      const label = `${record.type} ${kind}`;
      // The iteration-2 instances exercise a run that already has history behind it.
      const occurrence = [...seen].filter((entry) => entry.startsWith(label)).length;
      if (occurrence >= 2) continue;
      seen.add(`${label}#${occurrence}`);
      if (occurrence === 1) points.push({ seq: record.seq, label });
    }
    return points;
  }

  it('kill -9 after each kind of journal record, then `yoke run`, ends like an uncrashed run', async () => {
    const points = crashPoints();
    expect(points.length).toBeGreaterThanOrEqual(15);
    for (const point of points) {
      const ws = await crashWorkspace();
      try {
        const crashed = await runYoke(ws, ['run', '--quiet'], { env: { YOKE_FAILPOINT: `crash-after:${point.seq}` } });
        expect(crashed.signal, `${point.label} @${point.seq}`).toBe('SIGKILL');
        const resumed = await runYoke(ws, ['run', '--quiet']);
        expect(resumed.exitCode, `${point.label} @${point.seq}: ${resumed.stderr}`).toBe(0);
        expect(await outcome(ws), `${point.label} @${point.seq}`).toEqual(reference.outcome);
        await assertNothingRanTwice(ws, point.label === 'process.spawned check.run');
        const records = await readJournal(ws);
        expect(records.filter((r) => r.type === 'run.resumed')).toHaveLength(1);
      } finally {
        await ws.cleanup();
      }
    }
  }, 240_000);

  it('a torn last line is cut off with a warning and the run resumes', async () => {
    const event = reference.records.find((r) => r.type === 'event' && (r.payload as { event: { type: string } }).event.type === 'AGENT_EXITED');
    expect(event).toBeDefined();
    const ws = await crashWorkspace();
    try {
      const crashed = await runYoke(ws, ['run', '--quiet'], { env: { YOKE_FAILPOINT: `torn-at:${event?.seq ?? 0}` } });
      expect(crashed.signal).toBe('SIGKILL');
      const resumed = await runYoke(ws, ['run', '--quiet']);
      expect(resumed.exitCode, resumed.stderr).toBe(0);
      expect(resumed.stderr).toMatch(/journal\.jsonl:\d+: removed a torn last line/);
      expect(await outcome(ws)).toEqual(reference.outcome);
      await assertNothingRanTwice(ws);
      const records = await readJournal(ws);
      expect(records.filter((r) => r.type === 'journal.repaired')).toHaveLength(1);
    } finally {
      await ws.cleanup();
    }
  });

  it('an agent left running by a crashed yoke is stopped before the run resumes', async () => {
    const agentCalls = new Set(reference.records.filter((r) => r.type === 'effect.started' && (r.payload as { kind: string }).kind === 'agent.spawn').map((r) => (r.payload as { key: string }).key));
    const spawned = reference.records.filter((r) => r.type === 'process.spawned' && agentCalls.has((r.payload as { key: string }).key))[1];
    expect(spawned).toBeDefined();
    const ws = await crashWorkspace();
    try {
      writeFileSync(ws.side('slow'), '');
      const crashed = await runYoke(ws, ['run', '--quiet'], { env: { YOKE_FAILPOINT: `crash-after:${spawned?.seq ?? 0}` } });
      expect(crashed.signal).toBe('SIGKILL');
      // The crashed yoke's agent (and its grandchild) outlive it: they are in their own group.
      await waitFor(() => existsSync(ws.side('slow-pids')));
      const [agentPid, grandchildPid] = ((await ws.sideText('slow-pids')) ?? '').trim().split(' ').map(Number);
      expect(pidAlive(agentPid ?? 0)).toBe(true);
      const resumed = await runYoke(ws, ['run', '--quiet']);
      expect(resumed.exitCode, resumed.stderr).toBe(0);
      expect(pidAlive(agentPid ?? 0)).toBe(false);
      expect(pidAlive(grandchildPid ?? 0)).toBe(false);
      const records = await readJournal(ws);
      expect(records.filter((r) => r.type === 'effect.interrupted')).toHaveLength(1);
      // The interrupted call was replaced by a fresh call for the same iteration.
      expect(await outcome(ws)).toEqual(reference.outcome);
    } finally {
      await ws.cleanup();
    }
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
