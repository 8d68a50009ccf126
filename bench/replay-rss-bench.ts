// Benchmark: peak memory (VmHWM) of `yoke replay --json` and `yoke replay --verify` on a generated
// journal of ~1M records, each in its own process; compared with an idle `node` and the file size.
import { spawn } from 'node:child_process';
import { readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { verdict } from './bench-timing.js';
import { writeSyntheticRun } from './synthetic-run.js';

/** Peak RSS in MB of `node args…` (stdout discarded), polled from /proc/<pid>/status. */
async function peakRss(args: string[]): Promise<{ mb: number; code: number | null }> {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'inherit'] });
  let peakKb = 0;
  const poll = () => {
    try {
      const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid ?? 0}/status`, 'utf8'));
      if (match) peakKb = Math.max(peakKb, Number(match[1]));
    } catch {
      // gone already
    }
  };
  const timer = setInterval(poll, 10);
  const code = await new Promise<number | null>((done) => child.on('exit', (status) => done(status)));
  clearInterval(timer);
  return { mb: peakKb / 1024, code };
}

/** RSS of replaying a big journal, streamed. */
export async function replayRssBench(work: string, yoke: string, quick: boolean, report: (name: string, lines: string[]) => void): Promise<void> {
  const iterations = quick ? 1000 : 47_620;
  const path = join(work, 'rss.jsonl');
  const records = await writeSyntheticRun(path, iterations);
  const fileMb = statSync(path).size / (1 << 20);
  const idle = await peakRss(['-e', '']);
  const json = await peakRss([yoke, 'replay', '--json', '--journal', path]);
  const verify = await peakRss([yoke, 'replay', '--verify', '--journal', path]);
  rmSync(path);
  for (const [name, run] of [['--json', json], ['--verify', verify]] as const) {
    if (run.code !== 0) throw new Error(`yoke replay ${name} exited ${run.code ?? 'by a signal'}`);
  }
  report(`replay peak RSS: a ${records}-record journal (${fileMb.toFixed(0)} MB), one process each`, [
    `idle node:          ${idle.mb.toFixed(0)} MB`,
    `yoke replay --json:   ${json.mb.toFixed(0)} MB (${(json.mb / fileMb).toFixed(2)}x the file; ${verdict('≤ 150 MB for 1M records', json.mb <= 150, quick, 'flat in the file size; the rest is how far V8 lets the heap grow between collections: docs/performance.md')})`,
    `yoke replay --verify: ${verify.mb.toFixed(0)} MB (${(verify.mb / fileMb).toFixed(2)}x the file; ${verdict('≤ 150 MB for 1M records', verify.mb <= 150, quick, 'flat in the file size; the rest is how far V8 lets the heap grow between collections: docs/performance.md')})`,
  ]);
}
