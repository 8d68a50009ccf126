// A throwaway project for a parallel stories run (DESIGN §10) with a scripted `cmd` agent: each
// story's agent leaves out-<id>.txt, logs its call to the side folder, and says DONE.
import { createHash } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { JournalRecord } from '../../store/journal/record.js';
import { readJournalFile } from '../../store/journal/file/journal-file.js';
import { makeWorkspace, runYoke, type Workspace } from './workspace.js';

/**
 * Reads the story id from its prompt, leaves out-<id>.txt, appends its id to shared.txt when asked, says DONE.
 * `SETBACK=<id>:rate-limited` makes that story's first call report a rate limit (retry after 0.2 s) and do
 * nothing; `SETBACK=<id>:auth-error` makes its calls report an authentication failure until
 * $SIDE/auth-fixed exists.
 */
const AGENT = `#!/bin/sh
prompt=$(cat)
story=$(printf '%s\\n' "$prompt" | grep -o '^### [A-Za-z0-9_-]*:' | head -1 | sed 's/^### //; s/:$//')
printf '%s\\n' "$prompt" > "$SIDE/prompt-$story.md"
echo "$story $(pwd)" >> "$SIDE/calls"
case "$SETBACK" in
  "$story:rate-limited") if [ ! -f "$SIDE/limited-$story" ]; then touch "$SIDE/limited-$story"; printf '%s' '{"outcome":"rate-limited","detail":"429 Too Many Requests","retry_after_seconds":0.2}' > "$YOKE_USAGE_FILE"; exit 1; fi ;;
  "$story:auth-error") if [ ! -f "$SIDE/auth-fixed" ]; then printf '%s' '{"outcome":"auth-error","detail":"HTTP 401: invalid API key"}' > "$YOKE_USAGE_FILE"; exit 1; fi ;;
esac
echo "work for $story" > "out-$story.txt"
if [ -n "$SHARED" ]; then echo "$story" >> shared.txt; fi
if [ -n "$FORGE" ] && [ "$story" = S1 ] && [ ! -f "$SIDE/forged" ]; then touch "$SIDE/forged"; printf '%s\\n' '{"forged":true}' >> .loop/.journal/journal.jsonl; fi
sleep "\${SLEEP:-1}"
printf 'STATUS: DONE\\nDecision: wrote out-%s.txt\\n' "$story" > .loop/notes.md
`;

/** A prd.yaml with one story per id, each accepted when its out file exists. */
function prd(ids: string[]): string {
  return `stories:\n${ids.map((id) => `  - id: ${id}\n    title: Story ${id}\n    acceptance:\n      - text: out file exists\n        check: test -f out-${id}.txt\n`).join('')}`;
}

/**
 * A stories-mode project with the stories `ids` and the scripted agent; `env` is put in front of the
 * agent's command (`SLEEP=5 `, `SHARED=1 `, `FORGE=1 `, `SETBACK=S2:rate-limited `). The caller cleans it up.
 */
export async function makeParallelWorkspace(ids: string[], env = ''): Promise<Workspace> {
  const ws = await makeWorkspace((paths) => ({
    '.loop/yoke.conf': `mode stories\nagent cmd ${env}SIDE=${paths.sideDir} sh ${paths.side('agent.sh')}\nguard tree test -f .loop/prd.yaml\n`,
    '.loop/prd.yaml': prd(ids),
    '.loop/protocol.md': '# Protocol\n',
    '.loop/notes.md': 'STATUS: IN_PROGRESS\n',
    '.loop/.gitignore': '.journal/\n.stash/\n',
    '.yoke/context/DECISIONS.md': '# Decisions\n',
    '.yoke/context/PROJECT.md': '# Project\n\nEvery story leaves its out file.\n',
  }));
  await writeFile(ws.side('agent.sh'), AGENT);
  return ws;
}

/** Run the stories `ids` on `lanes` lanes (`yoke run --parallel`) in a throwaway project and hand back its journal's records. */
export async function recordParallelRun(ids: string[], lanes: number): Promise<JournalRecord[]> {
  const ws = await makeParallelWorkspace(ids);
  try {
    const run = await runYoke(ws, ['run', '--parallel', String(lanes)], { timeoutMs: 150_000 });
    if (run.exitCode !== 0) throw new Error(`yoke run --parallel ${lanes} exited ${run.exitCode}: ${run.stderr}`);
    return readJournalFile(ws.abs('.loop/.journal/journal.jsonl')).records;
  } finally {
    await ws.cleanup();
  }
}

/**
 * Where yoke makes story `id`'s lane worktree for the project `ws` (docs/parallel.md):
 * `$XDG_STATE_HOME/yoke/worktrees/<folder>-<12 hex of sha256(real root)>/<id>`, under the test run's
 * own state home (tests/support/state-home-global-setup.ts) unless `state` says another. Worked out
 * here, not asked of yoke.
 */
export function laneWorktree(ws: { path: string }, id: string, state = process.env.XDG_STATE_HOME): string {
  if (state === undefined) throw new Error('XDG_STATE_HOME is not set: the tests run with their own state home (vitest.config.ts)');
  const root = realpathSync(ws.path);
  return join(state, 'yoke', 'worktrees', `${basename(root)}-${createHash('sha256').update(root).digest('hex').slice(0, 12)}`, id);
}
