// Secrets in the environment never reach the journal (issue 20, item 6): an agent's last stderr line
// (journaled as `detail`) and a failing guard's output (journaled as `excerpt`, and inside the
// journaled guard-results.md) are redacted before they are journaled. Built CLI, real git, a sh agent.
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { journalPath, readJournal } from '../support/journal-records.js';
import { installShellAgent } from '../support/shell-agent.js';
import { makeWorkspace, runYoke, type Workspace } from '../support/workspace.js';

const TIMEOUT = 60_000;
const workspaces: Workspace[] = [];
afterEach(async () => {
  for (const ws of workspaces.splice(0)) await ws.cleanup();
});

const SECRETS = { SECRET_TOKEN: 'abc123', DB_URL: 'postgres://app:hunter22@db/app' };

async function setup(): Promise<Workspace> {
  const ws = await makeWorkspace((paths) => ({
    '.loop/yoke.conf': `${[
      'mode loop',
      `agent cmd sh ${paths.side('agent.sh')}`,
      'max-iterations 2',
      'redact DB_URL',
      `guard leak sh -c 'echo "guard sees $SECRET_TOKEN at $DB_URL"; exit 1'`,
      'commit off',
    ].join('\n')}\n`,
    '.loop/plan.md': '# Plan\n\nNothing.\n',
    '.loop/protocol.md': '# Protocol\n\nOne step.\n',
    '.loop/notes.md': 'STATUS: IN_PROGRESS\n',
    '.loop/.gitignore': '.journal/\n.stash/\n',
  }));
  workspaces.push(ws);
  await installShellAgent(ws.sideDir, {
    after: { worker: { notes: 'DONE', sh: 'echo "calling the API with $SECRET_TOKEN for $DB_URL" >&2', exitCode: 3 } },
  });
  return ws;
}

describe('issue 20.6: secrets reached the journal', () => {
  it('an agent’s last stderr line and a failing guard’s output are redacted in the whole journal; transcripts keep the raw bytes', async () => {
    const ws = await setup();
    const result = await runYoke(ws, ['run'], { env: SECRETS });
    expect(result.exitCode, result.stderr).toBe(1);

    const journal = await readFile(journalPath(ws.path), 'utf8');
    expect(journal).not.toContain('abc123');
    expect(journal).not.toContain('hunter22');
    // what was journaled instead
    const records = await readJournal(ws);
    const agent = records.find((r) => r.type === 'effect.completed' && (r.payload as { kind: string }).kind === 'agent.spawn');
    expect((agent?.payload as { result: { detail: string } }).result.detail)
      .toBe('exit 3: calling the API with [redacted $SECRET_TOKEN] for [redacted $DB_URL]');
    const guard = records.find((r) => r.type === 'effect.completed' && (r.payload as { kind: string }).kind === 'check.run');
    expect((guard?.payload as { result: { excerpt: string } }).result.excerpt).toBe('guard sees [redacted $SECRET_TOKEN] at [redacted $DB_URL]\n');
    const report = await ws.read('.loop/guard-results.md');
    expect(report).toContain('guard sees [redacted $SECRET_TOKEN] at [redacted $DB_URL]');
    expect(report).not.toContain('abc123');

    // The transcript is on disk only, never journaled: it keeps what the agent printed.
    const transcripts = join(ws.path, '.loop', '.journal', 'transcripts');
    const [first] = (await readdir(transcripts)).sort();
    expect(await readFile(join(transcripts, first ?? ''), 'utf8')).toContain('calling the API with abc123');

    // Replay reads the redacted text as journaled: the same decisions, without the environment.
    const verify = await runYoke(ws, ['replay', '--verify']);
    expect(verify.exitCode, verify.stdout + verify.stderr).toBe(0);
  }, TIMEOUT);
});
