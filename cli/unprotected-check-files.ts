// `config check`: a warning for every guard, periodic, guard-after or accept command that runs a
// file inside the project the agent may rewrite (issue 20, item 15). The rewritten script would
// then decide DONE; the boundary must protect it (`no-modify tests/`).
import { execFileSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { isAbsolute, join, posix, relative } from 'node:path';
import { splitConfigLines } from '../config/config-line.js';
import { shellWords, type ShellWord } from '../config/shell-words.js';
import type { Config, ConfigIssue, NamedCommand } from '../config/types.js';
import { boundaryProtects } from '../machines/boundary.js';
import { patternsCover } from '../machines/protect/protect-pattern.js';

/** What the check needs to know about the project's files. */
export interface ProjectFiles {
  /** is `path` (relative to the root) a file? */
  isFile(path: string): boolean;
  /** does git ignore `path`? */
  isIgnored(path: string): boolean;
}

/** The project at `root`, asked through the file system and `git check-ignore`. */
export function projectFiles(root: string): ProjectFiles {
  return {
    isFile: (path) => statSync(join(root, path), { throwIfNoEntry: false })?.isFile() ?? false,
    isIgnored: (path) => {
      try {
        execFileSync('git', ['check-ignore', '-q', '--', path], { cwd: root, stdio: 'ignore' });
        return true;
      } catch {
        return false;
      }
    },
  };
}

/** The project-relative path a word names, or null when it is no path inside the project (an option, an assignment, outside, expanded by sh). */
function projectPath(word: ShellWord, root: string): string | null {
  if (!word.literal || word.output || word.text === '' || word.text.startsWith('-') || /^[A-Za-z_][A-Za-z0-9_]*=/.test(word.text)) return null;
  const rel = isAbsolute(word.text) ? relative(root, word.text).split('\\').join('/') : word.text;
  const normal = posix.normalize(rel);
  if (normal === '.' || normal === '..' || normal.startsWith('../') || isAbsolute(normal)) return null;
  return normal.replace(/\/$/, '');
}

/** What to write to protect `path`: the file, or the folder holding it. */
function fix(path: string): string {
  const folder = posix.dirname(path);
  return folder === '.' ? `\`no-modify ${path}\`` : `\`no-modify ${folder}/\` (or \`no-modify ${path}\`)`;
}

/**
 * A warning at the file's word for each project file a check command names that neither the
 * boundary nor a `protect` pattern (`protectPatterns`, `auto` expanded) would catch the agent
 * changing. Commands run from the project root, so their paths are read
 * from there; a word sh expands (`$X`, globs) cannot be known and is skipped.
 */
export function unprotectedCheckFiles(config: Config, text: string, file: string, root: string, files: ProjectFiles, protectPatterns: readonly string[] = []): ConfigIssue[] {
  const lines = new Map(splitConfigLines(text).map((line) => [line.number, line]));
  const checks: Array<[string, NamedCommand]> = [
    ...config.guards.map((c): [string, NamedCommand] => ['guard', c]),
    ...config.periodics.map((c): [string, NamedCommand] => ['periodic', c]),
    ...config.guardAfters.map((c): [string, NamedCommand] => ['guard-after', c]),
    ...config.accepts.map((c): [string, NamedCommand] => ['accept', c]),
  ];
  const issues: ConfigIssue[] = [];
  for (const [kind, check] of checks) {
    const line = lines.get(check.line);
    const commandColumn = line === undefined ? 1 : line.text.length - check.command.length + 1;
    const seen = new Set<string>();
    for (const word of shellWords(check.command)) {
      const path = projectPath(word, root);
      if (path === null || seen.has(path) || !files.isFile(path)) continue;
      seen.add(path);
      if (boundaryProtects(path, config, files.isIgnored(path)) || patternsCover(protectPatterns, path)) continue;
      const inLoop = path.startsWith('.loop/');
      issues.push({
        file, line: check.line, column: commandColumn + word.start, severity: 'warning',
        message: `\`${kind} ${check.name}\` runs \`${path}\`, which the agent may rewrite: ${inLoop ? 'the boundary does not cover .loop/' : 'no `no-modify` prefix covers it'}`,
        hint: inLoop
          ? 'move it out of .loop/ and protect it with `no-modify`, so a rewritten script cannot decide DONE'
          : `add ${fix(path)}, so a rewritten script fails the boundary check instead of deciding DONE (or \`protect auto\`, which also restores it: docs/protect.md)`,
      });
    }
  }
  return issues;
}
