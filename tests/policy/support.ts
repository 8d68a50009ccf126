// Shared fixtures for the policy tests: a project at /p with a boundary, and call builders.
import type { ToolClass } from '../../config/types.js';
import { summarizeFindings, type Classification } from '../../policy/classification.js';
import { classifyShell } from '../../policy/shell/classify-shell.js';
import type { PolicyAgent } from '../../policy/tool-act.js';
import { SPEC_FILES, type ToolScope } from '../../policy/tool-scope.js';

/** The project the tables run in: /p, home /home/u, `no-modify tests/fixtures/`, `protect docs/*.md`. */
export const SCOPE: ToolScope = {
  root: '/p',
  cwd: '/p',
  home: '/home/u',
  allow: [],
  noModify: ['tests/fixtures/'],
  protect: ['docs/*.md'],
  specFiles: [...SPEC_FILES],
};

/** One row of a classification table. */
export interface ClassCase {
  agent: PolicyAgent;
  tool: string;
  input: unknown;
  class: ToolClass;
  /** A path the classification must list (for writes). */
  path?: string;
  scope?: Partial<ToolScope>;
}

/** A shell command as Claude's Bash tool runs it. */
export function bash(command: string, toolClass: ToolClass, path?: string, scope?: Partial<ToolScope>): ClassCase {
  return { agent: 'claude', tool: 'Bash', input: { command }, class: toolClass, ...(path === undefined ? {} : { path }), ...(scope === undefined ? {} : { scope }) };
}

/** Any agent's tool call. */
export function call(agent: PolicyAgent, tool: string, input: unknown, toolClass: ToolClass, path?: string, scope?: Partial<ToolScope>): ClassCase {
  return { agent, tool, input, class: toolClass, ...(path === undefined ? {} : { path }), ...(scope === undefined ? {} : { scope }) };
}

/** The classification of a shell command run from the project root (or `cwd`). */
export function shellClass(command: string, scope: Partial<ToolScope> = {}, cwd = '/p'): Classification {
  return summarizeFindings(classifyShell(command, { ...SCOPE, ...scope }, cwd));
}
