// Issue 20: the journal store's password reached agents, guards, hooks and the journal. The fleet
// worker hands `yoke run` its store as YOKE_STORE (with the password); yoke withholds YOKE_STORE and
// PGPASSWORD from everything it starts, and redacts the password should it turn up anyway (a guard
// reading yoke's own /proc/<pid>/environ). A real PostgreSQL store, the built CLI, real git, a sh agent.
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/postgres-database.js';
import { installShellAgent } from '../support/shell-agent.js';
import { makeWorkspace, runYoke, type Workspace } from '../support/workspace.js';

const TIMEOUT = 90_000;
let database: TestDatabase;
let ws: Workspace | undefined;

beforeAll(async () => {
  database = await createTestDatabase('store_credentials');
});
afterAll(async () => {
  await ws?.cleanup();
  await database.drop();
});

/** Every file under `dir`, with its text. */
async function filesUnder(dir: string): Promise<{ path: string; text: string }[]> {
  const found: { path: string; text: string }[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) found.push({ path: join(entry.parentPath, entry.name), text: await readFile(join(entry.parentPath, entry.name), 'utf8') });
  }
  return found;
}

async function journalText(workspace: string): Promise<string> {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    return (await client.query<{ text: string }>('SELECT text FROM yoke_journal WHERE workspace = $1 ORDER BY seq', [workspace])).rows.map((row) => row.text).join('\n');
  } finally {
    await client.end();
  }
}

describe('issue 20: the store password reached agents, guards, hooks and the journal', () => {
  it('YOKE_STORE and PGPASSWORD are withheld from the agent, the guard and the hook; the password read from /proc is redacted; neither journal nor transcripts hold it', async () => {
    const password = new URL(database.url).password;
    expect(password.length).toBeGreaterThanOrEqual(6);
    const made = await makeWorkspace((paths) => ({
      '.loop/yoke.conf': `${[
        'mode loop',
        `agent cmd sh ${paths.side('agent.sh')}`,
        'max-iterations 1',
        // the guard's parent is yoke: its environ still holds YOKE_STORE
        `guard leak echo "guard store [$YOKE_STORE] pg [$PGPASSWORD]"; tr '\\0' '\\n' < /proc/$PPID/environ | grep '^YOKE_STORE='; false`,
        'hook iteration-end env',
        'commit off',
      ].join('\n')}\n`,
      '.loop/plan.md': '# Plan\n\nNothing.\n',
      '.loop/protocol.md': '# Protocol\n\nOne step.\n',
      '.loop/notes.md': 'STATUS: IN_PROGRESS\n',
      '.loop/.gitignore': '.journal/\n.stash/\n',
    }));
    ws = made;
    await installShellAgent(made.sideDir, {
      after: { worker: { notes: 'DONE', sh: 'env | grep -E "^(YOKE_STORE|PGPASSWORD)=" >&2; echo "agent store [$YOKE_STORE] pg [$PGPASSWORD]" >&2', exitCode: 3 } },
    });
    const env = { YOKE_STORE: database.url, YOKE_WORKSPACE: 'creds', PGPASSWORD: password };
    const init = await runYoke(made, ['store', 'init'], { env });
    expect(init.exitCode, init.stderr).toBe(0);

    const result = await runYoke(made, ['run'], { env });
    expect(result.exitCode, result.stderr).toBe(1);

    const journal = await journalText('creds');
    expect(journal).toContain('agent store [] pg []');
    expect(journal).toContain('guard store [] pg []');
    // what the guard dug out of yoke's own environment is journaled without the password
    expect(journal).toContain('YOKE_STORE=postgres://');
    expect(journal).toContain('[redacted $YOKE_STORE]');
    expect(journal).not.toContain(password);

    const files = await filesUnder(join(made.path, '.loop'));
    const transcript = files.find((file) => file.path.includes(`${join('.journal', 'transcripts')}`));
    expect(transcript?.text).toContain('agent store [] pg []');
    const hookLog = files.find((file) => file.path.includes(join('.journal', 'hooks')));
    expect(hookLog?.text).toContain('YOKE_EVENT=iteration-end');
    expect(hookLog?.text).not.toMatch(/^(YOKE_STORE|PGPASSWORD)=/m);
    expect(files.find((file) => file.path.endsWith('guard-results.md'))?.text).toContain('[redacted $YOKE_STORE]');
    expect(files.filter((file) => file.text.includes(password)).map((file) => file.path)).toEqual([]);
  }, TIMEOUT);

  it('the variable a `store` line refers to (`${YOKE_DB_PASSWORD}`, as docs/yoke-conf.md advises) is withheld from the agent, the guard and the hook too', async () => {
    const url = new URL(database.url);
    const password = decodeURIComponent(url.password);
    url.password = 'PASSWORD_HERE';
    const store = url.toString().replace('PASSWORD_HERE', '${YOKE_DB_PASSWORD}');
    const made = await makeWorkspace((paths) => ({
      '.loop/yoke.conf': `${[
        'mode loop',
        `store ${store}`,
        `agent cmd sh ${paths.side('agent.sh')}`,
        'max-iterations 1',
        'guard leak echo "guard db [$YOKE_DB_PASSWORD]"; false',
        'hook iteration-end env',
        'commit off',
      ].join('\n')}\n`,
      '.loop/plan.md': '# Plan\n\nNothing.\n',
      '.loop/protocol.md': '# Protocol\n\nOne step.\n',
      '.loop/notes.md': 'STATUS: IN_PROGRESS\n',
      '.loop/.gitignore': '.journal/\n.stash/\n',
    }));
    const second = made;
    try {
      await installShellAgent(made.sideDir, { after: { worker: { notes: 'DONE', sh: 'echo "agent db [$YOKE_DB_PASSWORD]" >&2', exitCode: 3 } } });
      const env = { YOKE_DB_PASSWORD: password, YOKE_WORKSPACE: 'creds-ref', YOKE_STORE: '', PGPASSWORD: '' };
      const init = await runYoke(made, ['store', 'init'], { env });
      expect(init.exitCode, init.stderr).toBe(0);
      const result = await runYoke(made, ['run'], { env });
      expect(result.exitCode, result.stderr).toBe(1);
      const journal = await journalText('creds-ref');
      expect(journal).toContain('agent db []');
      expect(journal).toContain('guard db []');
      expect(journal).not.toContain(password);
      const files = await filesUnder(join(made.path, '.loop'));
      const hookLog = files.find((file) => file.path.includes(join('.journal', 'hooks')));
      expect(hookLog?.text).toContain('YOKE_EVENT=iteration-end');
      expect(hookLog?.text).not.toMatch(/^YOKE_DB_PASSWORD=/m);
    } finally {
      await second.cleanup();
    }
  }, TIMEOUT);
});
