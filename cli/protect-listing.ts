// `yoke config check`: what each `protect` line covers (for `protect auto`, every inferred pattern
// and why), how many files each matches now, and the problems: a pattern matching nothing is a
// warning, a covered symlink leading out of the project an error (DESIGN §16).
import type { Story } from '../config/prd/story.js';
import type { Config, ConfigIssue } from '../config/types.js';
import { escapingLinks, listProtected } from '../effects/protect/list-protected.js';
import { autoProtect } from '../machines/protect/auto-protect.js';
import { patternCovers } from '../machines/protect/protect-pattern.js';
import type { ProjectFiles } from './unprotected-check-files.js';

/** One protected pattern as `config check` lists it. */
export interface ProtectedPattern {
  pattern: string;
  /** the `yoke.conf` line that brings it in */
  line: number;
  /** null for a pattern written out; why `protect auto` infers it otherwise */
  auto: string | null;
  /** files it matches now, git-ignored ones included */
  files: number;
}

/** Every pattern the config protects (`stories`: prd.yaml's, whose checks `auto` reads too), with its file count, and the issues found about them. */
export async function protectListing(config: Config, file: string, root: string, files: ProjectFiles, stories: readonly Story[] = []): Promise<{ patterns: ProtectedPattern[]; issues: ConfigIssue[] }> {
  const patterns: ProtectedPattern[] = [];
  for (const entry of config.protect ?? []) {
    const expanded = entry.pattern === 'auto' ? autoProtect(config, (path) => files.isFile(path), stories).map((rule) => ({ pattern: rule.pattern, auto: rule.why })) : [{ pattern: entry.pattern, auto: null }];
    for (const { pattern, auto } of expanded) if (!patterns.some((known) => known.pattern === pattern)) patterns.push({ pattern, line: entry.line, auto, files: 0 });
  }
  const listed = await listProtected(root, patterns.map((entry) => entry.pattern));
  for (const entry of patterns) entry.files = listed.filter((found) => patternCovers(entry.pattern, found.path)).length;
  const issues: ConfigIssue[] = [];
  for (const entry of patterns) {
    if (entry.files > 0 || entry.auto !== null) continue;
    issues.push({
      file, line: entry.line, column: 1, severity: 'warning',
      message: `\`protect ${entry.pattern}\` matches no file yet`,
      hint: 'check the path (it is relative to the project root; write `**/` to match in every folder); a file created under it later is protected too',
    });
  }
  for (const link of await escapingLinks(root, listed, patterns.map((entry) => entry.pattern))) {
    issues.push({
      file, line: patterns.find((entry) => entry.pattern === link.pattern)?.line ?? 1, column: 1, severity: 'error',
      message: `\`protect ${link.pattern}\` covers \`${link.path}\`, a symlink to \`${link.target}\` outside the project`,
      hint: 'yoke protects only files inside the project: remove the link or narrow the pattern',
    });
  }
  return { patterns, issues };
}

/** The lines `config check` prints about protection ([] without a `protect` line). */
export function protectListingLines(patterns: readonly ProtectedPattern[]): string[] {
  if (patterns.length === 0) return [];
  const width = Math.min(32, Math.max(...patterns.map((entry) => entry.pattern.length)));
  const total = patterns.reduce((sum, entry) => sum + entry.files, 0);
  return [
    `protected (acceptance infrastructure, restored when an agent changes it; ${total} file match(es) now):`,
    ...patterns.map((entry) => `  ${entry.pattern.padEnd(width)}  ${String(entry.files).padStart(3)} file(s)  ${entry.auto === null ? `protect line ${entry.line}` : `protect auto (line ${entry.line}): ${entry.auto}`}`),
  ];
}
