// vitest globalSetup: one throwaway state home (XDG_STATE_HOME) for the whole test run, so the lane
// worktrees of parallel runs (`<state home>/yoke/worktrees/`) never land in the real home. The test
// workers and every yoke they start inherit it; it is removed when the run ends (unless KEEP_E2E=1).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Point XDG_STATE_HOME at a fresh temp folder; the teardown removes it. */
export default async function setup(): Promise<() => Promise<void>> {
  const home = await mkdtemp(join(tmpdir(), 'yoke-state-home-'));
  process.env.XDG_STATE_HOME = home;
  return async () => {
    if (process.env.KEEP_E2E !== '1') await rm(home, { recursive: true, force: true });
  };
}
