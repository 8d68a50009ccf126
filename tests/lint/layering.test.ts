// The layering rules (DESIGN §7) must actually fire, on resolved paths: a rule that never fires proves nothing.
import { readdirSync } from 'node:fs';
import { ESLint } from 'eslint';
import importX from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import { importSettings, layeringRules, STORE_ABOVE_THE_SEAM } from '../../eslint.config.js';
import { repoRoot } from '../support/yoke-process.js';

const eslint = new ESLint({
  cwd: repoRoot,
  overrideConfigFile: true,
  overrideConfig: [{
    files: ['**/*.ts'],
    languageOptions: { parser: tseslint.parser },
    plugins: { 'import-x': importX as unknown as ESLint.Plugin },
    settings: importSettings,
    rules: layeringRules,
  }],
});

/** Lint `code` as if it were the file `file` (relative to the repository root). */
async function problems(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${repoRoot}/${file}` });
  return (result?.messages ?? []).map((message) => message.message);
}

describe('layering lint', () => {
  it.each([
    ['effects/handlers/probe.ts', "import { JournalWriter } from '../../store/journal/journal-writer.js';", 'effects/ must not depend on store/ or cli/'],
    ['cli/commands/probe.ts', "import { FileJournalStore } from '../../store/journal/file/file-journal-store.js';", 'only store/session/ picks a journal backend'],
    ['cli/probe.ts', "import { readJournalFile } from '../store/journal/file/journal-file.js';", 'only store/session/ picks a journal backend'],
    ['store/fold/probe.ts', "import { FileJournalReader } from '../journal/file/file-journal-reader.js';", 'only store/session/ picks a journal backend'],
    ['store/stash/probe.ts', "import { readLock } from '../journal/file/workspace-lock.js';", 'only store/session/ picks a journal backend'],
    ['effects/probe.ts', "import { EXIT } from '../cli/exit-codes.js';", 'effects/ must not depend on store/ or cli/'],
    ['store/fold/probe.ts', "import { EXIT } from '../../cli/exit-codes.js';", 'store/ must not depend on cli/'],
    ['machines/work/probe.ts', "import { handlers } from '../../effects/registry.js';", 'machines/ imports only machines/, policy/ and config/'],
    ['machines/probe.ts', "import { YokeError } from '../errors/yoke-error.js';", 'machines/ imports only machines/, policy/ and config/'],
    ['policy/shell/probe.ts', "import { spawnAgent } from '../../effects/handlers/agent-spawn.js';", 'policy/ imports only policy/, machines/ and config/'],
    ['policy/probe.ts', "import { readLedger } from '../store/projections/usage-ledger.js';", 'policy/ imports only policy/, machines/ and config/'],
    ['config/probe.ts', "import { request } from '../machines/effects.js';", 'config/ is the bottom floor'],
    ['config/probe.ts', "import { classifyToolCall } from '../policy/classify-tool-call.js';", 'config/ is the bottom floor'],
    ['errors/probe.ts', "import { MODES } from '../config/types.js';", 'errors/ is a leaf'],
  ])('%s: refuses %s', async (file, code, expected) => {
    expect((await problems(file, code)).join('\n')).toContain(expected);
  });

  it.each([
    ['cli/commands/probe.ts', "import { openWorkspace } from '../../store/session/open-workspace.js';"],
    ['store/session/probe.ts', "import { FileJournalStore } from '../journal/file/file-journal-store.js';"],
    ['store/probe.ts', "import { handlers } from '../effects/registry.js';"],
    ['effects/probe.ts', "import { request } from '../machines/effects.js';"],
    ['effects/probe.ts', "import { YokeError } from '../errors/yoke-error.js';"],
    ['machines/probe.ts', "import { MODES } from '../config/types.js';"],
    ['policy/paths/probe.ts', "import { findViolations } from '../../machines/boundary.js';"],
    ['machines/probe.ts', "import { classifyToolCall } from '../policy/classify-tool-call.js';"],
  ])('%s: accepts %s', async (file, code) => {
    expect(await problems(file, code)).toEqual([]);
  });
});

// The repository's own eslint.config.js, as `npm run lint` loads it (type-aware parsing off, so a
// probe file that is in no tsconfig can be linted): the rules above must be on for every floor.
const repoLint = new ESLint({ cwd: repoRoot, overrideConfig: [{ files: ['**/*.ts'], ...tseslint.configs.disableTypeChecked }] });

async function repoProblems(file: string, code: string): Promise<string[]> {
  const [result] = await repoLint.lintText(code, { filePath: `${repoRoot}/${file}` });
  return (result?.messages ?? []).map((message) => `${message.ruleId ?? 'parse'}: ${message.message}`);
}

describe('layering lint, as the repository configures it', () => {
  it.each([
    ['cli/commands/probe.ts', "import { FileJournalStore } from '../../store/journal/file/file-journal-store.js';", 'only store/session/ picks a journal backend'],
    ['effects/handlers/probe.ts', "import { JournalWriter } from '../../store/journal/journal-writer.js';", 'effects/ must not depend on store/ or cli/'],
    ['store/fold/probe.ts', "import { EXIT } from '../../cli/exit-codes.js';", 'store/ must not depend on cli/'],
    ['machines/work/probe.ts', "import { handlers } from '../../effects/registry.js';", 'machines/ imports only machines/, policy/ and config/'],
    ['store/fleet/probe.ts', "import { PostgresJournalReader } from '../journal/postgres/postgres-journal-reader.js';", 'The fleet may use only the shared store\'s pool, schema and URL modules'],
    ['store/gate/probe.ts', "import { PostgresJournalStore } from '../journal/postgres/postgres-journal-store.js';", 'only store/session/ picks a journal backend'],
  ])('%s: import-x/no-restricted-paths refuses %s', async (file, code, expected) => {
    expect((await repoProblems(file, code)).join('\n')).toContain(`import-x/no-restricted-paths: Unexpected path`);
    expect((await repoProblems(file, code)).join('\n')).toContain(expected);
  });

  it('lets the fleet use the shared store\'s pool and schema check, and nothing else there', async () => {
    expect(await repoProblems('store/fleet/probe.ts', "import { withClient } from '../journal/postgres/store-pool.js';\nimport { assertStoreReady } from '../journal/postgres/store-schema.js';\nexport const x = [withClient, assertStoreReady];\n")).toEqual([]);
  });

  it('covers every folder of store/ but journal/ and session/ with the backend rule', () => {
    const folders = readdirSync(`${repoRoot}/store`, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => `./store/${entry.name}`);
    expect([...STORE_ABOVE_THE_SEAM].sort()).toEqual(folders.filter((folder) => folder !== './store/journal' && folder !== './store/session').sort());
  });
});
