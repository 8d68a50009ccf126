// A problem in the canon, named by file and line like a compiler error.

/** One problem: where (relative to the canon folder) and what to do. */
export interface CanonIssue {
  file: string;
  line: number;
  message: string;
}

/** `file:line: message`, the form editors and terminals link to. */
export function formatCanonIssue(issue: CanonIssue, folder = ''): string {
  return `${folder === '' ? '' : `${folder.replace(/\/$/, '')}/`}${issue.file}:${issue.line}: ${issue.message}`;
}
