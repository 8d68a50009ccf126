// Ready-to-run brute and saga workspaces for end-to-end tests, driven by the node fake agent (steps
// by iteration, per role) or the fast shell agent (the nth call of a role does its nth step).
import { fakeAgentCommand, type FakeScript, writeScript } from './fake-agent-script.js';
import { installShellAgent, shellCalls, type ShellScript } from './shell-agent.js';
import { makeWorkspace, type Workspace, type WorkspacePaths } from './workspace.js';

export const DEFAULT_JUDGE = '# Judge\n\nCheck that the plan is done; write VERDICT: PASS or VERDICT: FAIL.\n';
export const DEFAULT_SPECIFICATION = '# Specification\n\nA parser, then a printer.\n';

/** What a test sets up: the mode, the conf after `mode …` and the agent line, the agent's script, other files. */
export type JudgedSetup = {
  mode: 'loop' | 'brute' | 'saga';
  conf: string[] | ((paths: WorkspacePaths) => string[]);
  /** project files (paths from the project root); they replace the mode's `.loop/` files of the same name */
  files?: Record<string, string>;
} & ({ agent: 'fake'; script: FakeScript | ((paths: WorkspacePaths) => FakeScript) } | { agent?: 'shell'; script: ShellScript });

/** The `.loop/` files a user has before `yoke run`. */
function modeFiles(mode: JudgedSetup['mode'], conf: string): Record<string, string> {
  const common = { '.loop/yoke.conf': conf, '.loop/protocol.md': '# Protocol\n\nOne step, then notes.md.\n', '.loop/notes.md': 'STATUS: IN_PROGRESS\n', '.loop/.gitignore': '.journal/\n.stash/\n' };
  const plan = { '.loop/plan.md': '# Plan\n\nBuild the widget.\n' };
  switch (mode) {
    case 'loop':
      return { ...common, ...plan };
    case 'brute':
      return { ...common, ...plan, '.loop/judge.md': DEFAULT_JUDGE };
    case 'saga':
      return { ...common, '.loop/judge.md': DEFAULT_JUDGE, '.loop/specification.md': DEFAULT_SPECIFICATION, '.loop/saga-notes.md': 'STATUS: IN_PROGRESS\n' };
  }
}

/** A committed workspace and the env yoke needs for its agent. */
export async function makeJudgedWorkspace(setup: JudgedSetup): Promise<{ ws: Workspace; env: Record<string, string> }> {
  let agentLine = '';
  const ws = await makeWorkspace((paths) => {
    const lines = typeof setup.conf === 'function' ? setup.conf(paths) : setup.conf;
    // the shell agent lives in the side folder, which exists before the files are written
    agentLine = setup.agent === 'fake' ? fakeAgentCommand() : `agent cmd sh ${paths.side('agent.sh')}`;
    return { ...modeFiles(setup.mode, `${[`mode ${setup.mode}`, agentLine, ...lines].join('\n')}\n`), ...setup.files };
  });
  if (setup.agent === 'fake') {
    const script = typeof setup.script === 'function' ? setup.script(ws) : setup.script;
    return { ws, env: await writeScript(ws, script) };
  }
  await installShellAgent(ws.sideDir, setup.script);
  return { ws, env: {} };
}

/** The shell agent's calls as `role#iteration` (`scoper` alone), in order. */
export async function callLabels(ws: Workspace): Promise<string[]> {
  return (await shellCalls(ws.sideDir)).map((c) => (c.role === 'scoper' ? 'scoper' : `${c.role}#${c.iteration}`));
}
