// Parses and validates the text of `.loop/yoke.conf` (DESIGN §3). Pure: no I/O, no clock.
import { splitConfigLines, type ConfigLine } from './config-line.js';
import { createConfigDraft, finishConfig, type ConfigDraft } from './config-draft.js';
import { DIRECTIVE_READERS } from './directive-readers.js';
import { DIRECTIVE_NAMES, DIRECTIVES, isDirectiveName } from './directive-table.js';
import { withSuggestion } from './closest-match.js';
import { createIssueCollector, type IssueCollector } from './issue-collector.js';
import { validateConfig } from './validate-config.js';
import type { Config, ConfigIssue } from './types.js';

function readLine(line: ConfigLine, draft: ConfigDraft, issues: IssueCollector): void {
  const [directive] = line.tokens;
  if (!isDirectiveName(directive.text)) {
    const hint = withSuggestion('see docs/yoke-conf.md for the directives', directive.text, DIRECTIVE_NAMES);
    issues.error(line.number, directive.column, `\`${directive.text}\` is not a yoke.conf directive`, hint);
    return;
  }
  const name = directive.text;
  const spec = DIRECTIVES[name];
  draft.uses.push({ value: name, line: line.number, column: directive.column });
  if (spec.single) {
    const first = draft.firstLines.get(name);
    if (first === undefined) draft.firstLines.set(name, line.number);
    else issues.error(line.number, directive.column, `\`${name}\` is already set on line ${first}`, 'keep only one of the two lines');
  }
  DIRECTIVE_READERS[name]({ name, spec, line, draft, issues });
}

/**
 * Reads a whole yoke.conf and reports every problem at once, sorted by line.
 * `config` is null when any issue is an error; warnings alone leave it usable.
 * @example parseConfig('mode loop\nagent claude\nguard tests npm test\n', '.loop/yoke.conf').config?.guards
 */
export function parseConfig(text: string, file: string): { config: Config | null; issues: ConfigIssue[] } {
  const issues = createIssueCollector(file);
  const draft = createConfigDraft();
  for (const line of splitConfigLines(text)) readLine(line, draft, issues);
  validateConfig(draft, issues);
  const config = issues.hasErrors() ? null : finishConfig(draft);
  return { config, issues: issues.sorted() };
}
