// DESIGN §9, the Project context block end to end: the built CLI in real temp git repos with the
// shell agent, asserting on the prompt the agent received (its stdin, recorded by the agent).
import { afterAll, describe, expect, it } from 'vitest';
import { makeJudgedWorkspace } from '../support/judged-workspace.js';
import { installShellAgent, type ShellScript } from '../support/shell-agent.js';
import { type Workspace, makeWorkspace, runYoke } from '../support/workspace.js';

const TIMEOUT = 90_000;
const workspaces: Workspace[] = [];
afterAll(async () => {
  if (process.env.KEEP_E2E === '1') return;
  await Promise.all(workspaces.splice(0).map((ws) => ws.cleanup()));
});

async function setup(conf: string[], script: ShellScript, files: Record<string, string> = {}) {
  const made = await makeJudgedWorkspace({ mode: 'loop', conf: ['max-iterations 1', 'commit off', ...conf], script, files });
  workspaces.push(made.ws);
  return made;
}

const prompt = async (ws: Workspace, n: number): Promise<string> => (await ws.sideText(`prompts/worker-${n}.md`)) ?? '(no prompt)';

describe.concurrent('DESIGN §9: every agent prompt opens with the Project context block', () => {
  it('without .yoke/context/ and with an empty one the prompt is byte-identical; with PROJECT.md it opens with the block, the old prompt unchanged after it', async () => {
    const { ws, env } = await setup([], { after: { worker: { notes: 'IN_PROGRESS' } } });
    expect((await runYoke(ws, ['run'], { env })).exitCode).toBe(1);
    await ws.write('.yoke/context/.keep', '');
    expect((await runYoke(ws, ['run', '--fresh'], { env })).exitCode).toBe(1);
    await ws.write('.yoke/context/PROJECT.md', '# North star\n\nShip a tiny widget.\n');
    expect((await runYoke(ws, ['run', '--fresh'], { env })).exitCode).toBe(1);
    const [bare, empty, withProject] = [await prompt(ws, 1), await prompt(ws, 2), await prompt(ws, 3)];
    expect(empty).toBe(bare);
    expect(withProject).toBe(`# Project context\n\n## .yoke/context/PROJECT.md\n\n# North star\n\nShip a tiny widget.\n\n---\n\n${bare}`);
    const verify = await runYoke(ws, ['replay', '--verify'], { env });
    expect(verify.exitCode, verify.stdout + verify.stderr).toBe(0);
  }, TIMEOUT);

  it('the judge (brute), the scoper (saga), the goal worker and the stories worker and judge open with the block too, and are byte-identical without the folder', async () => {
    const project = '# North star\n\nShip a tiny widget.\n';
    const block = `# Project context\n\n## .yoke/context/PROJECT.md\n\n${project}\n---\n\n`;
    const verdictFail = { write: { '.loop/verdict.md': 'VERDICT: FAIL\nnot yet\n' } };
    /** Run the mode twice (without the folder, then with PROJECT.md); each role's second prompt must be the block and its first. */
    const twice = async (ws: Workspace, roles: string[], exitCode: number): Promise<void> => {
      expect((await runYoke(ws, ['run'])).exitCode).toBe(exitCode);
      await ws.write('.yoke/context/PROJECT.md', project);
      expect((await runYoke(ws, ['run'])).exitCode).toBe(exitCode);
      for (const role of roles) {
        const [bare, withProject] = [await ws.sideText(`prompts/${role}-1.md`), await ws.sideText(`prompts/${role}-2.md`)];
        expect(bare, role).not.toBeNull();
        expect(bare, role).not.toContain('# Project context');
        expect(withProject, role).toBe(`${block}${bare ?? ''}`);
      }
    };
    const brute = await makeJudgedWorkspace({ mode: 'brute', conf: ['max-iterations 1', 'commit off'], script: { after: { worker: { notes: 'DONE' }, judge: verdictFail } } });
    const saga = await makeJudgedWorkspace({ mode: 'saga', conf: ['commit off'], script: { after: { scoper: { write: { '.loop/saga-notes.md': 'STATUS: DONE\n' } } } } });
    workspaces.push(brute.ws, saga.ws);
    const own = async (mode: string, conf: string[], files: Record<string, string>, script: ShellScript): Promise<Workspace> => {
      const ws = await makeWorkspace((paths) => ({
        '.loop/yoke.conf': [`mode ${mode}`, `agent cmd sh ${paths.side('agent.sh')}`, ...conf, ''].join('\n'),
        '.loop/protocol.md': '# Protocol\n',
        '.loop/notes.md': 'STATUS: IN_PROGRESS\n',
        '.loop/.gitignore': '.journal/\n.stash/\n',
        ...files,
      }));
      workspaces.push(ws);
      await installShellAgent(ws.sideDir, script);
      return ws;
    };
    const goal = await own('goal', ['accept tests false', 'max-iterations 1'], { '.loop/goal.md': '# Goal\n\nA widget.\n' }, { after: { worker: { notes: 'IN_PROGRESS' } } });
    const stories = await own('stories', ['review on', 'max-iterations 1'], {
      '.loop/prd.yaml': 'stories:\n  - id: S1\n    title: Widget\n    acceptance: [a widget]\n',
      '.loop/judge.md': '# Judge\n',
    }, { after: { worker: { notes: 'DONE' }, judge: verdictFail } });
    await Promise.all([
      twice(brute.ws, ['judge'], 1),
      twice(saga.ws, ['scoper'], 0),
      twice(goal, ['worker'], 1),
      twice(stories, ['worker', 'judge'], 1),
    ]);
  }, TIMEOUT);

  it('an agent’s change to PROJECT.md and DECISIONS.md is put back and reported; its KNOWLEDGE.md change stays and is no boundary violation', async () => {
    const project = '# North star\n\nShip it.\n';
    const ledger = '# Decisions\n';
    const { ws, env } = await setup(['allow src/'], {
      worker: [{ write: { 'src/a.ts': 'export const a = 1;\n', '.yoke/context/PROJECT.md': 'I rewrote the goal.\n', '.yoke/context/DECISIONS.md': '', '.yoke/context/KNOWLEDGE.md': 'tabs, not spaces\n' }, notes: 'DONE' }],
    }, { '.yoke/context/PROJECT.md': project, '.yoke/context/DECISIONS.md': ledger });
    const result = await runYoke(ws, ['run'], { env });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(await ws.read('.yoke/context/PROJECT.md')).toBe(project);
    expect(await ws.read('.yoke/context/DECISIONS.md')).toBe(ledger);
    expect(await ws.read('.yoke/context/KNOWLEDGE.md')).toBe('tabs, not spaces\n');
    expect(result.stderr).toContain('the agent changed .yoke/context/DECISIONS.md, .yoke/context/PROJECT.md');
    expect(result.stderr).not.toMatch(/boundary|violation/i);
    expect((await runYoke(ws, ['replay', '--verify'], { env })).exitCode).toBe(0);
  }, TIMEOUT);

  it('context-budget from yoke.conf bounds the block (the ledger keeps its tail); yoke context --json shows the same block', async () => {
    const ledger = `# Decisions\n\n${Array.from({ length: 40 }, (_, i) => `## 2026-01-01 — S${i}: story ${i}\nsummary ${i}\n`).join('\n')}`;
    const { ws, env } = await setup(['context-budget 300'], { after: { worker: { notes: 'IN_PROGRESS' } } }, { '.yoke/context/DECISIONS.md': ledger });
    const shown = await runYoke(ws, ['context', '--json'], { env });
    expect(shown.exitCode, shown.stderr).toBe(0);
    const report = JSON.parse(shown.stdout) as { files: { name: string; bytes: number | null; injected: number }[]; budget: number; block: string };
    expect(report.budget).toBe(300);
    expect(report.files.map((file) => [file.name, file.bytes])).toEqual([['PROJECT.md', null], ['DECISIONS.md', Buffer.byteLength(ledger)], ['KNOWLEDGE.md', null]]);
    expect(report.block.length).toBeLessThanOrEqual(300);
    expect(report.block).toContain('summary 39\n');
    expect(report.block).not.toContain('summary 1\n');
    expect((await runYoke(ws, ['run'], { env })).exitCode).toBe(1);
    expect((await prompt(ws, 1)).startsWith(report.block)).toBe(true);
  }, TIMEOUT);

  it('bad input: a bad context-budget is refused with file:line (exit 2) by yoke context and by yoke run, which calls no agent', async () => {
    const { ws, env } = await setup(['context-budget lots'], { after: { worker: { notes: 'DONE' } } }, { '.yoke/context/PROJECT.md': 'x\n' });
    for (const args of [['context'], ['run']]) {
      const result = await runYoke(ws, args, { env });
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toMatch(/\.loop\/yoke\.conf:5:16: error: `lots` is not a whole number/);
    }
    expect(await ws.sideText('prompts/worker-1.md')).toBeNull();
  }, TIMEOUT);

  it('yoke context init writes only the missing templates and never overwrites; a file where the folder belongs exits 2', async () => {
    const { ws, env } = await setup([], {}, { '.yoke/context/PROJECT.md': 'mine\n' });
    const init = await runYoke(ws, ['context', 'init', '--json'], { env });
    expect(init.exitCode, init.stderr).toBe(0);
    expect(JSON.parse(init.stdout)).toEqual({ dir: '.yoke/context', written: ['DECISIONS.md', 'KNOWLEDGE.md'], kept: ['PROJECT.md'] });
    expect(await ws.read('.yoke/context/PROJECT.md')).toBe('mine\n');
    expect(await ws.read('.yoke/context/DECISIONS.md')).toContain('# Decisions');
    const other = await setup([], {}, { '.yoke': 'not a folder\n' });
    const refused = await runYoke(other.ws, ['context', 'init'], { env: other.env });
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('.yoke is a file, not a folder');
  }, TIMEOUT);
});
