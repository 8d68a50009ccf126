// Secrets in the environment never reach the journal (issue 20, item 6): an agent's last stderr line
// (journaled as `detail`), a failing guard's output (journaled as `excerpt`, and inside the
// journaled guard-results.md) and a goal's acceptance criteria (journaled as `excerpt`, kept in
// report.json, and committed inside guard-results.md) are redacted before they are journaled or
// written. Built CLI, real git, a sh agent.
import { execFileSync } from 'node:child_process';
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

/** A goal whose `leak` criterion fails until the worker writes fixed.txt (attempt 2), and whose `smoke` always passes; both print secrets. */
async function goalSetup(): Promise<Workspace> {
  const ws = await makeWorkspace((paths) => ({
    '.loop/yoke.conf': `${[
      'mode goal',
      `agent cmd sh ${paths.side('agent.sh')}`,
      'budget attempts 3',
      'redact DB_URL',
      `accept leak sh -c 'echo "accept sees $SECRET_TOKEN"; test -f fixed.txt'`,
      `accept smoke sh -c 'echo "connected with $SECRET_TOKEN to $DB_URL"'`,
      'commit done',
    ].join('\n')}\n`,
    '.loop/goal.md': '# Goal\n\nPass both criteria.\n',
    '.loop/protocol.md': '# Protocol\n\nOne step.\n',
    '.loop/notes.md': 'STATUS: IN_PROGRESS\n',
    '.loop/.gitignore': '.journal/\n.stash/\nproof/\n',
  }));
  workspaces.push(ws);
  await installShellAgent(ws.sideDir, {
    worker: [{ notes: 'DONE', write: { 'work.txt': 'one\n' } }],
    after: { worker: { notes: 'DONE', write: { 'fixed.txt': 'fixed\n' } } },
  });
  return ws;
}

describe('issue 20.6: a goal’s acceptance output reached the journal, report.json and git', () => {
  it('a failing and a passing accept criterion print secrets: redacted in the journal, report.json and the commit of guard-results.md', async () => {
    const ws = await goalSetup();
    const result = await runYoke(ws, ['run'], { env: SECRETS });
    expect(result.exitCode, result.stderr).toBe(0);

    const journal = await readFile(journalPath(ws.path), 'utf8');
    expect(journal).not.toContain('abc123');
    expect(journal).not.toContain('hunter22');
    const records = await readJournal(ws);
    const checks = records.filter((r) => r.type === 'effect.completed' && (r.payload as { kind: string }).kind === 'acceptance.check')
      .map((r) => (r.payload as { result: { criteria: { name: string; status: string; excerpt: string }[] } }).result.criteria);
    expect(checks).toHaveLength(2);
    // attempt 1: `leak` failed, and its redacted output is what the worker is shown
    expect(checks[0]).toEqual(expect.arrayContaining([
      expect.objectContaining({ name: 'leak', status: 'failed', excerpt: 'accept sees [redacted $SECRET_TOKEN]\n' }),
      expect.objectContaining({ name: 'smoke', status: 'passed', excerpt: 'connected with [redacted $SECRET_TOKEN] to [redacted $DB_URL]\n' }),
    ]));
    // the redact names travel in the journaled params (names only)
    const started = records.find((r) => r.type === 'effect.started' && (r.payload as { kind: string }).kind === 'acceptance.check');
    expect((started?.payload as { params: { redact?: string[] } }).params.redact).toEqual(['DB_URL']);

    const proof = join(ws.path, '.loop', 'proof');
    const [label] = await readdir(proof);
    const report = await readFile(join(proof, label ?? '', 'report.json'), 'utf8');
    expect(report).toContain('connected with [redacted $SECRET_TOKEN]');
    expect(report).not.toContain('abc123');
    expect(report).not.toContain('hunter22');

    // the passing criteria's output is committed inside guard-results.md: without the secrets
    const committed = execFileSync('git', ['show', 'HEAD:.loop/guard-results.md'], { cwd: ws.path, encoding: 'utf8' });
    expect(committed).toContain('connected with [redacted $SECRET_TOKEN] to [redacted $DB_URL]');
    for (const secret of ['abc123', 'hunter22']) {
      const grep = execFileSync('sh', ['-c', `git grep -c ${secret} HEAD; echo "exit $?"`], { cwd: ws.path, encoding: 'utf8' });
      expect(grep.trim()).toBe('exit 1');
    }

    const verify = await runYoke(ws, ['replay', '--verify']);
    expect(verify.exitCode, verify.stdout + verify.stderr).toBe(0);
  }, TIMEOUT);
});
