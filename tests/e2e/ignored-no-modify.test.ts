// `no-modify` protects git-ignored files too (issue 20, item 9): they are hashed at the baseline and
// compared by every boundary scan, under no-modify prefixes only. Built CLI, real git, the sh agent.
import { afterEach, describe, expect, it } from 'vitest';
import { makeJudgedWorkspace } from '../support/judged-workspace.js';
import { readJournal } from '../support/journal-records.js';
import { runYoke, type Workspace } from '../support/workspace.js';

const TIMEOUT = 60_000;
const workspaces: Workspace[] = [];
afterEach(async () => {
  for (const ws of workspaces.splice(0)) await ws.cleanup();
});

describe('issue 20.9: no-modify silently protected nothing on git-ignored paths', () => {
  it('a changed ignored file under no-modify is a boundary violation (guards skipped); put back, the run goes on', async () => {
    const { ws } = await makeJudgedWorkspace({
      mode: 'loop',
      conf: ['max-iterations 3', 'no-modify vendor/', 'guard ran sh -c \'echo ran >> "$YOKE_LOOP_DIR/../../side/guard.log"\'', 'commit off'],
      files: { '.gitignore': 'vendor/\nnode_modules/\n', 'vendor/lib.js': 'export const v = 1;\n', 'node_modules/dep/index.js': 'dep\n' },
      script: {
        worker: [
          { write: { 'vendor/lib.js': 'export const v = 2; // patched by the agent\n', 'node_modules/dep/index.js': 'dep, rebuilt\n' }, notes: 'DONE' },
          { write: { 'vendor/lib.js': 'export const v = 1;\n' }, notes: 'DONE' },
        ],
      },
    });
    workspaces.push(ws);
    expect((await ws.git(['status', '--porcelain', '--ignored'])).trim()).toContain('!! vendor/');

    const result = await runYoke(ws, ['run']);
    expect(result.exitCode, result.stderr).toBe(0);
    const scans = (await readJournal(ws))
      .filter((r) => r.type === 'effect.completed' && (r.payload as { kind: string }).kind === 'boundary.scan')
      .map((r) => (r.payload as { result: { changed: string[] } }).result.changed);
    // node_modules/ is ignored and under no prefix: never walked, never reported
    expect(scans).toEqual([['vendor/lib.js'], []]);
    const reports = (await readJournal(ws))
      .filter((r) => r.type === 'effect.started' && (r.payload as { kind: string; params: { file?: string } }).params.file === 'guard-results.md')
      .map((r) => (r.payload as { params: { content: string } }).params.content);
    expect(reports[0]).toContain('- `vendor/lib.js` — protected by `no-modify vendor/`');
    expect(reports[0]).toContain('All guards were skipped');
    expect(await ws.sideLines('guard.log')).toEqual(['ran']);
  }, TIMEOUT);
});
