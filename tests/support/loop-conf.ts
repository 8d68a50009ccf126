// Builders for `.loop/` contents in loop mode.
import { fakeAgentCommand } from './fake-agent-script.js';

/** A yoke.conf from its lines (line N of the file is `lines[N - 1]`). */
export function loopConf(lines: string[]): string {
  return `${lines.join('\n')}\n`;
}

/** The usual head of a test conf: loop mode, the fake agent, and an iteration cap. */
export function confHead(maxIterations = 5): string[] {
  return ['mode loop', fakeAgentCommand(), `max-iterations ${maxIterations}`];
}

export const DEFAULT_PLAN = '# Plan\n\nBuild the thing described here.\n';
export const DEFAULT_PROTOCOL = '# Protocol\n\nDo one step, then write notes.md.\n';

export interface LoopFilesOptions {
  plan?: string;
  protocol?: string;
  notes?: string;
}

/** Project files for a loop workspace: `.loop/` spec files, notes and `.loop/.gitignore`. */
export function loopFiles(conf: string, opts: LoopFilesOptions = {}): Record<string, string> {
  return {
    '.loop/yoke.conf': conf,
    '.loop/plan.md': opts.plan ?? DEFAULT_PLAN,
    '.loop/protocol.md': opts.protocol ?? DEFAULT_PROTOCOL,
    '.loop/notes.md': opts.notes ?? 'STATUS: IN_PROGRESS\n',
    '.loop/.gitignore': '.journal/\n.stash/\n',
  };
}
