// A ready-to-run loop-mode workspace: project files, `.loop/` with a conf, and a fake agent script.
import { type FakeScript, type ScriptEnv, writeScript } from './fake-agent-script.js';
import { type LoopFilesOptions, loopConf, loopFiles } from './loop-conf.js';
import { makeWorkspace, type Workspace, type WorkspacePaths } from './workspace.js';

export interface LoopSetup extends LoopFilesOptions {
  /** yoke.conf lines; a function gets the workspace paths (for guards that write side files) */
  conf: string[] | ((paths: WorkspacePaths) => string[]);
  /** what the fake agent does; a function gets the workspace paths (for recordFile targets) */
  script: FakeScript | ((paths: WorkspacePaths) => FakeScript);
  /** other project files */
  files?: Record<string, string>;
}

/** Build a committed loop workspace and the env that points yoke's agent at the script. */
export async function makeLoopWorkspace(setup: LoopSetup): Promise<{ ws: Workspace; env: ScriptEnv }> {
  const ws = await makeWorkspace((paths) => {
    const lines = typeof setup.conf === 'function' ? setup.conf(paths) : setup.conf;
    return { ...setup.files, ...loopFiles(loopConf(lines), setup) };
  });
  const env = await writeScript(ws, typeof setup.script === 'function' ? setup.script(ws) : setup.script);
  return { ws, env };
}
