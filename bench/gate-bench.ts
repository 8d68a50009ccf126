// Benchmark: one tool call's ruling round trip through `yoke gate --agent claude` (spawn, read the
// hook JSON, ask the running yoke over its socket, which classifies, journals two records durably
// and answers) against a bare `node -e 0` hook. Target (issue 13): at most 1.5× `node -e 0`.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { openFileJournal } from '../store/journal/file/open-file-journal.js';
import { openGateServer } from '../store/gate/gate-server.js';

/** Wall time of one spawn, stdin written and closed. */
function timed(args: string[], env: NodeJS.ProcessEnv, stdin: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn(process.execPath, args, { env, stdio: ['pipe', 'ignore', 'ignore'] });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(Number(process.hrtime.bigint() - start) / 1e6) : reject(new Error(`exited ${code ?? '?'}`))));
    child.stdin.end(stdin);
  });
}

const median = (list: number[]): number => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)] ?? Number.NaN;

/** Interleaved rounds of the gate and `node -e 0`; reports both medians and the ratio. */
export async function gateBench(work: string, yoke: string, quick: boolean, report: (name: string, lines: string[]) => void): Promise<void> {
  const journal = await openFileJournal(join(work, 'gate-journal.jsonl'));
  const run = '01BENCHGATE000000000000000';
  const server = await openGateServer({
    run,
    root: work,
    home: null,
    config: { allow: [], noModify: [], toolRules: undefined, toolControl: 'on' },
    protect: () => [],
    tracked: () => Promise.resolve(null),
    stage: (draft) => journal.stage({ ...draft, run, machine: 'loop', mv: 1 } as Parameters<typeof journal.stage>[0]),
    stageOperator: (draft) => journal.stage(draft),
    token: null,
    flush: () => journal.flush(),
    records: () => [],
  });
  server.setCall(`${run}/1/0`);
  const payload = JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'npm test && git status' }, tool_use_id: 'toolu_bench', cwd: work });
  const env = { ...process.env, YOKE_GATE_SOCKET: server.socketPath };
  const rounds = quick ? 10 : 40;
  const gate: number[] = [];
  const bare: number[] = [];
  try {
    for (let round = 0; round < rounds; round += 1) {
      gate.push(await timed([yoke, 'gate', '--agent', 'claude'], env, payload));
      bare.push(await timed(['-e', '0'], env, payload));
    }
  } finally {
    await server.close();
    await journal.close();
  }
  const g = median(gate);
  const b = median(bare);
  report('tool-call gate round trip (yoke gate --agent claude → socket → ruling, 2 records fsynced)', [
    `yoke gate:  ${g.toFixed(1)} ms median of ${rounds}`,
    `node -e 0:  ${b.toFixed(1)} ms`,
    `ratio:      ${(g / b).toFixed(2)}× (target ≤ 1.5×)`,
  ]);
}
