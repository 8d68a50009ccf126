import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    // One throwaway PostgreSQL cluster for the run; each test file that needs it makes its own database.
    // And one throwaway state home: parallel runs' lane worktrees go there, not into the real home.
    globalSetup: ['tests/support/postgres-global-setup.ts', 'tests/support/state-home-global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Most tests wait on real processes (git, agents, the CLIs), not the CPU: on a 2-core machine
    // vitest's default (cores - 1 = one worker) leaves it idle; three workers keep it busy.
    maxWorkers: 3,
    reporters: ['default'],
  },
});
