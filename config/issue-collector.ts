// Gathers the issues found in one config file, so parsing reports every problem, not the first.
import type { ConfigIssue } from './types.js';

/** Records errors and warnings located in one file. */
export interface IssueCollector {
  error(line: number, column: number, message: string, hint: string): void;
  warning(line: number, column: number, message: string, hint: string): void;
  hasErrors(): boolean;
  /** Everything recorded, ordered by line then column (stable for equal positions). */
  sorted(): ConfigIssue[];
}

/** A fresh collector for `file`. */
export function createIssueCollector(file: string): IssueCollector {
  const issues: ConfigIssue[] = [];
  const add = (severity: ConfigIssue['severity']) => (line: number, column: number, message: string, hint: string) => {
    issues.push({ file, line, column, message, hint, severity });
  };
  return {
    error: add('error'),
    warning: add('warning'),
    hasErrors: () => issues.some((issue) => issue.severity === 'error'),
    sorted: () => [...issues].sort((a, b) => a.line - b.line || a.column - b.column),
  };
}
