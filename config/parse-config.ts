// Parses and validates the text of `.loop/yoke.conf` (DESIGN §3). Pure: no I/O, no clock.
import { splitConfigLines, type ConfigLine } from './config-line.js';
import { createConfigDraft, finishConfig, type ConfigDraft } from './config-draft.js';
import { DIRECTIVE_READERS } from './directive-readers.js';
import { DIRECTIVE_NAMES, directiveTable, isDirectiveName, type DirectiveTable } from './directive-table.js';
import { withSuggestion } from './closest-match.js';
import { createIssueCollector, type IssueCollector } from './issue-collector.js';
import type { LifecycleCatalog } from './lifecycle-catalog.js';
import { resolveProfiles } from './resolve-profiles.js';
import { validateConfig } from './validate-config.js';
import type { Config, ConfigIssue } from './types.js';

/** What every line is read against: the directive table and the lifecycles a `mode` may name. */
interface Grammar {
  table: DirectiveTable;
  catalog: LifecycleCatalog;
}

/**
 * A NUL byte can never reach a command: `sh -c` takes a C string, so the command would fail to
 * start at every iteration. It is reported where it is; the rest of the line is read with a space
 * in its place, so the report is not followed by misleading ones ("no `agent` line").
 */
function withoutNulBytes(line: ConfigLine, issues: IssueCollector): ConfigLine | null {
  const at = line.text.indexOf('\u0000');
  if (at < 0) return line;
  issues.error(line.number, at + 1, 'this line contains a NUL byte (\\0)', 'remove it: a command cannot contain a NUL byte, so sh could never run it');
  const [cleaned] = splitConfigLines(line.text.replaceAll('\u0000', ' '));
  return cleaned === undefined ? null : { ...cleaned, number: line.number };
}

function readLine(written: ConfigLine, draft: ConfigDraft, issues: IssueCollector, grammar: Grammar): void {
  const line = withoutNulBytes(written, issues);
  if (line === null) return;
  const [directive] = line.tokens;
  if (!isDirectiveName(directive.text)) {
    const hint = withSuggestion('see docs/yoke-conf.md for the directives', directive.text, DIRECTIVE_NAMES);
    issues.error(line.number, directive.column, `\`${directive.text}\` is not a yoke.conf directive`, hint);
    return;
  }
  const name = directive.text;
  const spec = grammar.table[name];
  draft.uses.push({ value: name, line: line.number, column: directive.column });
  if (spec.single) {
    const first = draft.firstLines.get(name);
    if (first === undefined) draft.firstLines.set(name, line.number);
    else issues.error(line.number, directive.column, `\`${name}\` is already set on line ${first}`, 'keep only one of the two lines');
  }
  DIRECTIVE_READERS[name]({ name, spec, line, draft, issues, catalog: grammar.catalog });
}

/**
 * Reads a whole yoke.conf and reports every problem at once, sorted by line. `catalog` is the
 * lifecycles a `mode` line may name, with the traits that decide where each directive applies.
 * `config` is null when any issue is an error; warnings alone leave it usable.
 * @example parseConfig('mode loop\nagent claude\nguard tests npm test\n', '.loop/yoke.conf', LIFECYCLE_REGISTRY).config?.guards
 */
export function parseConfig(text: string, file: string, catalog: LifecycleCatalog): { config: Config | null; issues: ConfigIssue[] } {
  const issues = createIssueCollector(file);
  const draft = createConfigDraft();
  const grammar: Grammar = { table: directiveTable(catalog), catalog };
  for (const line of splitConfigLines(text)) readLine(line, draft, issues, grammar);
  resolveProfiles(draft, issues);
  validateConfig(draft, issues, catalog);
  const config = issues.hasErrors() ? null : finishConfig(draft);
  return { config, issues: issues.sorted() };
}
