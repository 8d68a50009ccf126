// The checks that need the whole file: required directives, guard-after references, evidence
// references, and directives that have no effect in the file's mode.
import { withSuggestion } from './closest-match.js';
import type { ConfigDraft } from './config-draft.js';
import { appliesIn, directiveTable } from './directive-table.js';
import type { IssueCollector } from './issue-collector.js';
import { findLifecycle, lifecycleNames, withAlternatives, type LifecycleCatalog } from './lifecycle-catalog.js';
import { validateEvidence } from './validate-evidence.js';

function checkRequired(draft: ConfigDraft, issues: IssueCollector, catalog: LifecycleCatalog): void {
  if (!draft.firstLines.has('mode')) {
    issues.error(1, 1, 'the config has no `mode` line', `add ${withAlternatives(catalog, (name) => `\`mode ${name}\``)} as the first line`);
  }
  if (!draft.firstLines.has('agent')) {
    issues.error(1, 1, 'the config has no `agent` line', 'add `agent claude` (or codex, gemini, opencode, qwen, or `agent cmd <command>`)');
  }
  const modeLine = draft.firstLines.get('mode');
  // DESIGN §12: a journey is a criterion too
  const hasCriterion = draft.uses.some((use) => use.value === 'accept' || use.value === 'journey');
  const mode = draft.scalars.mode === undefined ? undefined : findLifecycle(catalog, draft.scalars.mode);
  if (mode?.features.includes('acceptance') && !hasCriterion && modeLine !== undefined) {
    issues.error(modeLine, 1, `${mode.name} mode needs at least one acceptance criterion, an \`accept\` or a \`journey\``, 'add a line like `accept tests npm test` or `journey smoke journeys/smoke.yaml`');
  }
}

/** spec 5.4: a guard-after naming a periodic that is declared nowhere in the file is an error. */
function checkGuardAfterReferences(draft: ConfigDraft, issues: IssueCollector): void {
  const periodics = draft.periodics.map((periodic) => periodic.name);
  for (const guardAfter of draft.guardAfters) {
    if (periodics.includes(guardAfter.periodic)) continue;
    const hint = `declare it with \`periodic ${guardAfter.periodic} <every-N> <command>\` or fix the name`;
    issues.error(
      guardAfter.line, guardAfter.periodicColumn,
      `\`guard-after\` names periodic \`${guardAfter.periodic}\`, which is not declared`,
      withSuggestion(hint, guardAfter.periodic, periodics),
    );
  }
}

/** `brute mode`, `brute and saga modes`, `loop, brute and saga modes`. */
function modesText(modes: readonly string[]): string {
  if (modes.length === 0) return 'no mode of this yoke';
  return modes.length === 1 ? `${modes.join('')} mode` : `${modes.slice(0, -1).join(', ')} and ${modes.at(-1)} modes`;
}

function checkModeApplicability(draft: ConfigDraft, issues: IssueCollector, catalog: LifecycleCatalog): void {
  const mode = draft.scalars.mode === undefined ? undefined : findLifecycle(catalog, draft.scalars.mode);
  if (mode === undefined) return;
  const table = directiveTable(catalog);
  for (const use of draft.uses) {
    const { appliesTo } = table[use.value];
    if (appliesIn(appliesTo, mode)) continue;
    const where = modesText(lifecycleNames(catalog.filter((lifecycle) => appliesIn(appliesTo, lifecycle))));
    issues.warning(use.line, use.column, `\`${use.value}\` has no effect in ${mode.name} mode`, `it applies in ${where}; remove it or change the mode`);
  }
}

/** Adds the whole-file issues for a fully read draft, against the lifecycles of `catalog`. */
export function validateConfig(draft: ConfigDraft, issues: IssueCollector, catalog: LifecycleCatalog): void {
  checkRequired(draft, issues, catalog);
  checkGuardAfterReferences(draft, issues);
  validateEvidence(draft, issues);
  checkModeApplicability(draft, issues, catalog);
  checkIdleTimeoutForBuiltIns(draft, issues);
}

/** Below this, a built-in CLI can be killed while it starts: it prints nothing until its first answer. */
const CLI_STARTUP_MS = 30_000;

/** A warning when `idle-timeout` is so short that a built-in agent CLI may be killed before it says anything. */
function checkIdleTimeoutForBuiltIns(draft: ConfigDraft, issues: IssueCollector): void {
  const idle = draft.scalars.idleTimeoutMs;
  const line = draft.firstLines.get('idle-timeout');
  if (idle === undefined || idle === 0 || idle >= CLI_STARTUP_MS || line === undefined) return;
  const builtIn = [draft.scalars.agent, draft.scalars.judgeAgent, draft.scalars.scoperAgent].find((agent) => agent !== undefined && agent.kind !== 'cmd');
  if (builtIn === undefined) return;
  issues.warning(line, 1, `\`idle-timeout\` of ${idle / 1000}s may kill ${builtIn.kind} before its first output`, 'the agent CLIs print nothing while they start (up to 15 s on a busy machine); use 30s or more');
}
