// `yoke retrofit` on the four fixture projects of issue 14, through the shipped CLI: for each, the
// plan (--dry-run writes nothing), the result, a second run (tree unchanged, "up to date"), --check,
// and --undo (the tree byte for byte as before, checked with a tree hash).
import { createHash } from 'node:crypto';
import { lstat, mkdir, readFile, readlink, rename, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse as parseToml } from 'smol-toml';
import { cleanupAfterEach } from '../support/e2e-cleanup.js';
import { snapshotTree, type TreeSnapshot } from '../support/tree-snapshot.js';
import { makeWorkspace, runYoke, type Workspace } from '../support/workspace.js';

const leftovers = cleanupAfterEach();

async function project(files: Record<string, string>, commit = true): Promise<Workspace> {
  const ws = await makeWorkspace(files, { commit });
  leftovers.workspaces.push(ws);
  return ws;
}

/** Every entry under the project but .git/: paths, folders and file hashes. */
const tree = (ws: Workspace): Promise<TreeSnapshot> => snapshotTree(ws.path, ['.git']);
const treeHash = async (ws: Workspace): Promise<string> => createHash('sha256').update(JSON.stringify(Object.entries(await tree(ws)).sort())).digest('hex');

interface PlanJson {
  agents: string[];
  entries: Array<{ path: string; action: string; reason: string; summary: string }>;
  changes: boolean;
  drift: boolean;
  refused: boolean;
  backup: string | null;
  exitCode: number;
}

async function retrofit(ws: Workspace, args: string[] = []): Promise<{ exitCode: number | undefined; stdout: string; stderr: string; plan: PlanJson }> {
  const result = await runYoke(ws, ['retrofit', '--json', ...args]);
  return { ...result, plan: JSON.parse(result.stdout) as PlanJson };
}

const action = (plan: PlanJson, path: string): string | undefined => plan.entries.find((entry) => entry.path === path)?.action;

/**
 * Lines of `original` appear in `after` in the same order (the user's content is all still there);
 * a line may have gained the comma that separates it from an item appended after it.
 */
function keepsEveryLine(original: string, after: string): boolean {
  const lines = after.split('\n');
  let at = 0;
  for (const line of original.split('\n')) {
    at = lines.findIndex((candidate, index) => index >= at && (candidate === line || candidate === `${line},`));
    if (at < 0) return false;
    at += 1;
  }
  return true;
}

/**
 * The steps every fixture goes through after its first run: a second run (changes nothing, says
 * so), --check, --undo (back to `before`, byte for byte). `exits` are the run's and --check's codes.
 */
async function secondRunCheckUndo(ws: Workspace, before: string, exits = { run: 0, check: 0 }): Promise<void> {
  const afterFirst = await treeHash(ws);
  const second = await runYoke(ws, ['retrofit']);
  expect(second.exitCode, second.stderr).toBe(exits.run);
  if (exits.check === 0) expect(second.stdout).toContain('up to date: nothing to change');
  else expect(second.stdout).toMatch(/drifted|refused/);
  expect(await treeHash(ws)).toBe(afterFirst);
  const check = await runYoke(ws, ['retrofit', '--check']);
  expect(check.exitCode, check.stdout).toBe(exits.check);
  expect(await treeHash(ws)).toBe(afterFirst);
  const undo = await runYoke(ws, ['retrofit', '--undo']);
  expect(undo.exitCode, undo.stderr + undo.stdout).toBe(0);
  expect(await treeHash(ws)).toBe(before);
  const again = await runYoke(ws, ['retrofit', '--check']);
  expect(again.exitCode, 'after the undo, --check sees work to do').toBe(1);
}

describe('yoke retrofit: an empty repository with no commit yet', () => {
  it('plans everything, writes nothing on --dry-run, installs for all agents, is idempotent, checks and undoes exactly', async () => {
    const ws = await project({}, false);
    const before = await treeHash(ws);

    const dry = await retrofit(ws, ['--dry-run']);
    expect(dry.exitCode).toBe(0);
    expect(dry.plan.agents).toEqual(['claude', 'codex', 'gemini']);
    expect(await treeHash(ws)).toBe(before);
    for (const path of ['AGENTS.md', 'CLAUDE.md', '.claude/skills/review/SKILL.md', '.claude/settings.json', '.agents/skills/review/SKILL.md', '.codex/config.toml', '.gemini/settings.json', '.gemini/commands/yoke/review.toml', '.yoke/policy/gates.md', '.yoke/context/PROJECT.md', '.yoke/.gitignore', '.yoke/canon.lock']) {
      expect(action(dry.plan, path), path).toBe('create');
    }
    expect(dry.plan.entries.every((entry) => entry.reason !== '' && (entry.action !== 'create' || /^new, \d+ lines$/.test(entry.summary)))).toBe(true);

    const check = await runYoke(ws, ['retrofit', '--check']);
    expect(check.exitCode).toBe(1);
    expect(await treeHash(ws)).toBe(before);

    const first = await retrofit(ws);
    expect(first.exitCode, first.stderr).toBe(0);
    expect(first.plan.backup).toMatch(/^\.yoke\/backup\/\d{8}T\d{6}Z$/);
    expect(await ws.read('AGENTS.md')).toContain(await readFile('canon/AGENTS.md', 'utf8'));
    expect(await ws.read('CLAUDE.md')).toMatch(/yoke:begin canon[^\n]*\n@AGENTS\.md\n<!-- yoke:end canon -->\n$/);
    expect(await ws.read('.claude/skills/review/SKILL.md')).toBe(await readFile('canon/skills/review/SKILL.md', 'utf8'));
    const claude = JSON.parse(await ws.read('.claude/settings.json')) as { hooks: Record<string, Array<{ hooks: Array<{ command: string }> }>> };
    expect(claude.hooks.PreToolUse?.[0]?.hooks[0]?.command).toBe('yoke gate --agent claude');
    const gemini = JSON.parse(await ws.read('.gemini/settings.json')) as { context: { fileName: string[] }; hooks: { BeforeTool: Array<{ hooks: Array<{ name: string; command: string }> }> } };
    expect(gemini.context.fileName).toEqual(['AGENTS.md', 'GEMINI.md']);
    expect(gemini.hooks.BeforeTool[0]?.hooks[0]).toMatchObject({ name: 'yoke-gate', command: 'yoke gate --agent gemini' });
    const codex = parseToml(await ws.read('.codex/config.toml')) as { hooks: { PreToolUse: Array<{ hooks: Array<{ command: string }> }> } };
    expect(codex.hooks.PreToolUse[0]?.hooks[0]?.command).toBe('yoke gate --agent codex');
    const command = parseToml(await ws.read('.gemini/commands/yoke/review.toml')) as { description: string; prompt: string };
    expect(command.prompt).toContain('# Review');
    // backups stay out of git; the lock and the generated files are committable
    const status = await ws.git(['status', '--porcelain', '--untracked-files=all']);
    expect(status).not.toContain('.yoke/backup');
    expect(status).toContain('.yoke/canon.lock');
    await secondRunCheckUndo(ws, before);
  });
});

describe('yoke retrofit: a repository with its own CLAUDE.md, settings, AGENTS.md and Codex config', () => {
  const own = {
    'CLAUDE.md': '# Our rules\n\nAlways run `make test`.\n',
    'AGENTS.md': '# Our agents file\n\nUse tabs.\n',
    '.claude/settings.json': '{\n  "permissions": { "allow": ["Bash(make test)"], "deny": ["Read(.env)"] },\n  "hooks": {\n    "PreToolUse": [\n      { "matcher": "Bash", "hooks": [{ "type": "command", "command": "./scripts/audit.sh" }] }\n    ]\n  }\n}\n',
    '.gemini/settings.json': '{\n  // our theme\n  "ui": { "theme": "GitHub" },\n  "context": { "fileName": "GEMINI.md" }\n}\n',
    '.codex/config.toml': '# our codex settings\nmodel = "gpt-5.5"\n\n[mcp_servers.docs]\ncommand = "docs-mcp"\n',
  };

  it('keeps every byte of the user\'s content, merges settings key by key, and undoes to the exact bytes', async () => {
    const ws = await project(own);
    const before = await treeHash(ws);
    const dry = await retrofit(ws, ['--dry-run']);
    expect(dry.plan.agents).toEqual(['claude', 'codex', 'gemini']);
    for (const path of Object.keys(own)) expect(action(dry.plan, path), path).toBe('update');
    expect(await treeHash(ws)).toBe(before);

    const first = await retrofit(ws);
    expect(first.exitCode, first.stderr).toBe(0);
    for (const path of ['CLAUDE.md', 'AGENTS.md', '.codex/config.toml']) expect((await ws.read(path)).startsWith(own[path as keyof typeof own]), path).toBe(true);
    expect(await ws.read('AGENTS.md')).toContain('## Skill routing');
    expect(keepsEveryLine(own['.claude/settings.json'], await ws.read('.claude/settings.json'))).toBe(true);
    expect(keepsEveryLine(own['.gemini/settings.json'].replace(/\n {2}"context".*\n/, '\n'), await ws.read('.gemini/settings.json'))).toBe(true);

    const claude = JSON.parse(await ws.read('.claude/settings.json')) as { permissions: unknown; hooks: { PreToolUse: Array<{ matcher: string }>; PreSkillShellCommand: unknown[] } };
    expect(claude.permissions).toEqual({ allow: ['Bash(make test)'], deny: ['Read(.env)'] });
    expect(claude.hooks.PreToolUse.map((group) => group.matcher)).toEqual(['Bash', '*']);
    expect(claude.hooks.PreSkillShellCommand).toHaveLength(1);
    const geminiText = await ws.read('.gemini/settings.json');
    expect(geminiText).toContain('// our theme');
    expect(geminiText).toMatch(/"fileName": \[\s*"GEMINI\.md",\s*"AGENTS\.md"\s*\]/);
    const codex = parseToml(await ws.read('.codex/config.toml')) as { model: string; mcp_servers: unknown; hooks: { PreToolUse: unknown[] } };
    expect(codex.model).toBe('gpt-5.5');
    expect(codex.mcp_servers).toEqual({ docs: { command: 'docs-mcp' } });
    expect(codex.hooks.PreToolUse).toHaveLength(1);
    await secondRunCheckUndo(ws, before);
  });

  it('does not import AGENTS.md twice when the user\'s CLAUDE.md already does', async () => {
    const ws = await project({ 'CLAUDE.md': '@AGENTS.md\n\nMore of ours.\n' });
    const first = await retrofit(ws, ['--agent', 'claude']);
    expect(action(first.plan, 'CLAUDE.md')).toBe('unchanged');
    expect(await ws.read('CLAUDE.md')).toBe('@AGENTS.md\n\nMore of ours.\n');
  });

  it('refuses a TOML file whose hooks are an inline array (merging would be invalid TOML), and leaves it untouched', async () => {
    const ws = await project({ '.codex/config.toml': 'hooks.PreToolUse = []\n' });
    const first = await retrofit(ws, ['--agent', 'codex']);
    expect(first.exitCode).toBe(1);
    expect(action(first.plan, '.codex/config.toml')).toBe('refused');
    expect(first.plan.entries.find((entry) => entry.path === '.codex/config.toml')?.reason).toMatch(/^line \d+: .*invalid TOML/);
    expect(await ws.read('.codex/config.toml')).toBe('hooks.PreToolUse = []\n');
  });
});

describe('yoke retrofit: a repository whose earlier retrofit was edited by hand', () => {
  it('keeps the edits and writes .yoke-new beside them; a second run changes nothing, --check exits 1, --undo removes the .yoke-new files', async () => {
    const ws = await project({});
    expect((await runYoke(ws, ['retrofit', '--agent', 'claude'])).exitCode).toBe(0);
    const skill = '.claude/skills/review/SKILL.md';
    const editedSkill = `${await ws.read(skill)}\nOur extra rule.\n`;
    await ws.write(skill, editedSkill);
    const agents = (await ws.read('AGENTS.md')).replace('## Skill routing', '## Skill routing (ours)');
    await ws.write('AGENTS.md', agents);
    await ws.write('CLAUDE.md', `Our intro.\n\n${await ws.read('CLAUDE.md')}`);
    const settings = (await ws.read('.claude/settings.json')).replace('"timeout": 30', '"timeout": 5');
    await ws.write('.claude/settings.json', settings);
    const before = await treeHash(ws);

    const run = await retrofit(ws);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.plan.drift).toBe(true);
    for (const path of [skill, 'AGENTS.md', '.claude/settings.json']) {
      expect(action(run.plan, path), path).toBe('drifted');
      expect(action(run.plan, `${path}.yoke-new`), path).toBe('create');
    }
    expect(action(run.plan, 'CLAUDE.md'), 'text outside the block is the user\'s').toBe('unchanged');
    expect(await ws.read(skill)).toBe(editedSkill);
    expect(await ws.read('AGENTS.md')).toBe(agents);
    expect(await ws.read('.claude/settings.json')).toBe(settings);
    expect(await ws.read(`${skill}.yoke-new`)).toBe(await readFile('canon/skills/review/SKILL.md', 'utf8'));
    expect(await ws.read('.claude/settings.json.yoke-new')).toContain('"timeout": 30');

    // again: nothing changes, but --check fails on the drift; --undo removes the .yoke-new files
    await secondRunCheckUndo(ws, before, { run: 0, check: 1 });
  });

  it('second run is up to date but --check exits 1 on drift; taking yoke\'s version settles it; --undo returns to the edited tree', async () => {
    const ws = await project({});
    expect((await runYoke(ws, ['retrofit', '--agent', 'claude'])).exitCode).toBe(0);
    const skill = '.claude/skills/review/SKILL.md';
    await ws.write(skill, `${await ws.read(skill)}\nOur extra rule.\n`);
    const edited = await treeHash(ws);
    expect((await runYoke(ws, ['retrofit'])).exitCode).toBe(0);
    const afterDrift = await treeHash(ws);
    const second = await runYoke(ws, ['retrofit']);
    expect(second.stdout).toContain('drifted');
    expect(await treeHash(ws)).toBe(afterDrift);
    expect((await runYoke(ws, ['retrofit', '--check'])).exitCode).toBe(1);

    const undo = await runYoke(ws, ['retrofit', '--undo']);
    expect(undo.exitCode, undo.stdout).toBe(0);
    expect(await treeHash(ws)).toBe(edited);

    expect((await runYoke(ws, ['retrofit'])).exitCode).toBe(0);
    await rename(ws.abs(`${skill}.yoke-new`), ws.abs(skill));
    const settle = await retrofit(ws);
    expect(settle.exitCode).toBe(0);
    expect(settle.plan.drift).toBe(false);
    expect((await runYoke(ws, ['retrofit', '--check'])).exitCode).toBe(0);
  });

  it('updates a generated file the user left alone when the canon it came from changed (an older retrofit)', async () => {
    const ws = await project({});
    expect((await runYoke(ws, ['retrofit', '--agent', 'claude'])).exitCode).toBe(0);
    // Make the project look retrofitted by an older canon: an older skill text, recorded as yoke's.
    const skill = '.claude/skills/investigate/SKILL.md';
    const older = (await ws.read(skill)).replace('Never fix what you have not explained.', 'An older canon said this.');
    await ws.write(skill, older);
    const lock = JSON.parse(await ws.read('.yoke/canon.lock')) as { files: Record<string, { written: string; source: string }> };
    const hash = `sha256:${createHash('sha256').update(older).digest('hex')}`;
    lock.files[skill] = { ...lock.files[skill]!, written: hash, source: hash };
    await ws.write('.yoke/canon.lock', `${JSON.stringify(lock, null, 2)}\n`);
    const run = await retrofit(ws);
    expect(action(run.plan, skill)).toBe('update');
    expect(run.plan.entries.find((entry) => entry.path === skill)?.summary).toBe('+1 −1 lines');
    expect(await ws.read(skill)).toBe(await readFile('canon/skills/investigate/SKILL.md', 'utf8'));
  });
});

describe('yoke retrofit: a repository with an unparseable .claude/settings.json', () => {
  it('leaves that file untouched, reports it with its line and exits 1, installs the rest, and undoes exactly', async () => {
    const broken = '{\n  "permissions": {\n    "allow": [\n  }\n}\n';
    const ws = await project({ '.claude/settings.json': broken });
    const before = await treeHash(ws);
    const dry = await retrofit(ws, ['--dry-run']);
    expect(dry.exitCode).toBe(1);
    expect(await treeHash(ws)).toBe(before);
    const first = await retrofit(ws);
    expect(first.exitCode).toBe(1);
    expect(first.plan.agents).toEqual(['claude']);
    const entry = first.plan.entries.find((item) => item.path === '.claude/settings.json');
    expect(entry?.action).toBe('refused');
    expect(entry?.reason).toMatch(/^line 4:\d+: not valid JSON/);
    expect(await ws.read('.claude/settings.json')).toBe(broken);
    expect(action(first.plan, '.claude/skills/review/SKILL.md')).toBe('create');
    await secondRunCheckUndo(ws, before, { run: 1, check: 1 });
  });
});

describe('yoke retrofit: agents, stale files, refusals', () => {
  it('deletes what only a deselected agent needed (yoke made it and it is unchanged), and undo brings it back', async () => {
    const ws = await project({ '.gemini/settings.json': '{ "ui": { "theme": "GitHub" } }\n' });
    expect((await runYoke(ws, ['retrofit', '--agent', 'all'])).exitCode).toBe(0);
    const all = await treeHash(ws);
    const only = await retrofit(ws, ['--agent', 'claude']);
    expect(only.exitCode).toBe(0);
    expect(action(only.plan, '.agents/skills/review/SKILL.md')).toBe('delete');
    expect(action(only.plan, '.gemini/commands/yoke/review.toml')).toBe('delete');
    expect(action(only.plan, '.codex/config.toml')).toBe('delete');
    expect(action(only.plan, '.gemini/settings.json')).toBe('update');
    expect(await ws.exists('.agents')).toBe(false);
    expect(JSON.parse(await ws.read('.gemini/settings.json'))).toMatchObject({ ui: { theme: 'GitHub' } });
    expect(await ws.read('.gemini/settings.json')).not.toContain('yoke gate');
    expect((await runYoke(ws, ['retrofit', '--check'])).exitCode).toBe(0);
    expect((await runYoke(ws, ['retrofit', '--undo'])).exitCode).toBe(0);
    expect(await treeHash(ws)).toBe(all);
  });

  it('defaults to the detected agents', async () => {
    const ws = await project({ '.gemini/settings.json': '{}\n' });
    const dry = await retrofit(ws, ['--dry-run']);
    expect(dry.plan.agents).toEqual(['gemini']);
    expect(action(dry.plan, 'CLAUDE.md')).toBeUndefined();
  });

  it('refuses outside git (exit 3), the home folder (exit 3), an unknown agent (exit 2) and an undo with nothing to undo (exit 2)', async () => {
    const ws = await project({});
    const outside = await runYoke(ws, ['retrofit', ws.sideDir]);
    expect(outside.exitCode).toBe(3);
    expect(outside.stderr).toContain('not inside a git repository');
    const home = await runYoke(ws, ['retrofit'], { env: { HOME: ws.path } });
    expect(home.exitCode).toBe(3);
    expect(home.stderr).toContain('home folder');
    const bogus = await runYoke(ws, ['retrofit', '--agent', 'claude,cursor']);
    expect(bogus.exitCode).toBe(2);
    expect(bogus.stderr).toContain('`cursor`');
    const untouched = await treeHash(ws);
    const nothing = await runYoke(ws, ['retrofit', '--undo']);
    expect(nothing.exitCode).toBe(2);
    expect(await treeHash(ws)).toBe(untouched);
  });

  it('undo refuses when a file changed since the retrofit, and changes nothing', async () => {
    const ws = await project({});
    expect((await runYoke(ws, ['retrofit', '--agent', 'codex'])).exitCode).toBe(0);
    await writeFile(ws.abs('AGENTS.md'), 'mine now\n');
    const changed = await treeHash(ws);
    const undo = await runYoke(ws, ['retrofit', '--undo']);
    expect(undo.exitCode).toBe(1);
    expect(undo.stdout).toContain('AGENTS.md: was changed since the retrofit');
    expect(await treeHash(ws)).toBe(changed);
  });
});

describe('yoke retrofit: symbolic links and a hostile lock', () => {
  it('keeps `CLAUDE.md -> AGENTS.md` a working link: the baseline goes into AGENTS.md once, nothing is imported twice, and --undo leaves the link a link', async () => {
    const ws = await project({ 'AGENTS.md': '# Our agents file\n\nUse tabs.\n' });
    await symlink('AGENTS.md', ws.abs('CLAUDE.md'));
    await ws.git(['add', '-A']);
    await ws.git(['commit', '-q', '-m', 'CLAUDE.md is AGENTS.md']);
    const before = await treeHash(ws);
    const first = await retrofit(ws, ['--agent', 'claude']);
    expect(first.exitCode, first.stderr).toBe(0);
    expect(action(first.plan, 'CLAUDE.md')).toBe('unchanged');
    expect(first.plan.entries.find((entry) => entry.path === 'CLAUDE.md')?.reason).toContain('a link to AGENTS.md');
    expect((await lstat(ws.abs('CLAUDE.md'))).isSymbolicLink()).toBe(true);
    expect(await readlink(ws.abs('CLAUDE.md'))).toBe('AGENTS.md');
    const agents = await ws.read('AGENTS.md');
    expect(agents.startsWith('# Our agents file\n\nUse tabs.\n')).toBe(true);
    expect(agents).toContain('## Skill routing');
    expect(agents).not.toContain('@AGENTS.md');
    expect(agents.match(/yoke:begin canon/g)).toHaveLength(1);
    // git sees AGENTS.md changed, never CLAUDE.md turned into a file (`T CLAUDE.md`)
    expect(await ws.git(['status', '--porcelain', '--', 'CLAUDE.md', 'AGENTS.md'])).toBe(' M AGENTS.md');
    await secondRunCheckUndo(ws, before);
    expect(await readlink(ws.abs('CLAUDE.md'))).toBe('AGENTS.md');
    expect(await ws.git(['status', '--porcelain', '--', 'CLAUDE.md', 'AGENTS.md'])).toBe('');
  });

  it('a committed lock naming `../side/victim.txt` is refused with its line (exit 2): the file outside the project is not deleted, nothing changes', async () => {
    const ws = await project({});
    const victim = ws.side('victim.txt');
    await writeFile(victim, 'not yours\n');
    const hash = `sha256:${createHash('sha256').update('not yours\n').digest('hex')}`;
    const lock = { version: 1, canon: 1, agents: ['claude'], files: { '../side/victim.txt': { owner: 'file', source: hash, written: hash } } };
    await ws.write('.yoke/canon.lock', `${JSON.stringify(lock, null, 2)}\n`);
    const before = await treeHash(ws);
    const run = await runYoke(ws, ['retrofit']);
    expect(run.exitCode, run.stdout).toBe(2);
    expect(run.stderr).toMatch(/\.yoke\/canon\.lock:8: "\.\.\/side\/victim\.txt" is a path that leaves the project, so yoke will not write or delete it; .*nothing was changed/);
    expect(await readFile(victim, 'utf8')).toBe('not yours\n');
    expect(await treeHash(ws)).toBe(before);
    expect((await runYoke(ws, ['retrofit', '--check'])).exitCode).toBe(2);
  });

  it('never writes through a `.claude` link that leads out of the project: those files are refused (exit 1), the folder it points to is untouched, and the rest is installed', async () => {
    const ws = await project({});
    const home = ws.side('home-claude');
    await mkdir(join(home, 'skills'), { recursive: true });
    await writeFile(join(home, 'settings.json'), '{ "theme": "dark" }\n');
    await symlink(home, ws.abs('.claude'));
    const outside = await snapshotTree(home);
    const run = await retrofit(ws, ['--agent', 'claude']);
    expect(run.exitCode, run.stderr).toBe(1);
    for (const path of ['.claude/settings.json', '.claude/skills/review/SKILL.md']) {
      expect(action(run.plan, path), path).toBe('refused');
      expect(run.plan.entries.find((entry) => entry.path === path)?.reason).toContain('`.claude` is a link to');
    }
    expect(await snapshotTree(home)).toEqual(outside);
    expect(action(run.plan, 'AGENTS.md')).toBe('create');
    expect(await ws.read('CLAUDE.md')).toContain('@AGENTS.md');
    expect((await runYoke(ws, ['retrofit', '--undo'])).exitCode).toBe(0);
    expect(await snapshotTree(home)).toEqual(outside);
  });
});
