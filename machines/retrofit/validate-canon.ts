// `yoke canon validate`: the manifest against the folders, every skill's frontmatter, duplicate names.
import { baseName, type Canon, type CanonFiles } from './canon.js';
import type { CanonIssue } from './canon-issue.js';
import { parseCanonManifest } from './canon-manifest.js';
import { parseSkillFile, type SkillFile } from './skill-file.js';

/**
 * Check the canon and build it. `canon` is null when there is any issue; issues are in file order.
 * @example validateCanon(files).issues.map((issue) => formatCanonIssue(issue, 'canon'))
 */
export function validateCanon(input: CanonFiles): { canon: Canon | null; issues: CanonIssue[] } {
  const manifestText = input.files.get('manifest.yaml');
  if (manifestText === undefined) return { canon: null, issues: [{ file: 'manifest.yaml', line: 1, message: 'is missing; the canon folder needs one (docs/canon.md)' }] };
  const { manifest, issues } = parseCanonManifest(manifestText);
  if (manifest === null) return { canon: null, issues };

  const instructions = input.files.get(manifest.instructions.value);
  if (instructions === undefined) issues.push({ file: 'manifest.yaml', line: manifest.instructions.line, message: `instructions \`${manifest.instructions.value}\` does not exist` });
  else if (instructions.trim() === '') issues.push({ file: manifest.instructions.value, line: 1, message: 'is empty' });

  const skills: SkillFile[] = [];
  const listed = new Map<string, number>();
  for (const entry of manifest.skills) {
    const first = listed.get(entry.value);
    if (first !== undefined) {
      issues.push({ file: 'manifest.yaml', line: entry.line, message: `skill \`${entry.value}\` is listed twice (first on line ${first})` });
      continue;
    }
    listed.set(entry.value, entry.line);
    const path = `skills/${entry.value}/SKILL.md`;
    const text = input.files.get(path);
    if (text === undefined) {
      issues.push({ file: 'manifest.yaml', line: entry.line, message: `skill \`${entry.value}\` has no ${path}` });
      continue;
    }
    const parsed = parseSkillFile(path, text);
    issues.push(...parsed.issues);
    if (parsed.skill === null) continue;
    if (parsed.skill.name !== entry.value) issues.push({ file: path, line: 2, message: `name \`${parsed.skill.name}\` must equal its folder name \`${entry.value}\`` });
    const twin = skills.find((skill) => skill.name === parsed.skill?.name);
    if (twin) issues.push({ file: path, line: 2, message: `name \`${parsed.skill.name}\` is already used by another skill` });
    skills.push(parsed.skill);
  }
  for (const folder of input.skillFolders) {
    if (!listed.has(folder)) issues.push({ file: `skills/${folder}`, line: 1, message: `is not listed under \`skills:\` in manifest.yaml; list it or remove the folder` });
  }

  const texts = (entries: typeof manifest.policy, key: string) => entries.flatMap((entry) => {
    const text = input.files.get(entry.value);
    if (text === undefined) {
      issues.push({ file: 'manifest.yaml', line: entry.line, message: `${key} file \`${entry.value}\` does not exist` });
      return [];
    }
    return [{ path: entry.value, name: baseName(entry.value), text }];
  });
  const policy = texts(manifest.policy, 'policy');
  const context = texts(manifest.context, 'context');
  for (const group of [policy, context]) {
    const seen = new Set<string>();
    for (const item of group) {
      if (seen.has(item.name)) issues.push({ file: item.path, line: 1, message: `another listed file is also called ${item.name}; they would overwrite each other` });
      seen.add(item.name);
    }
  }
  if (issues.length > 0 || instructions === undefined) return { canon: null, issues: sortIssues(issues) };
  return { canon: { version: manifest.version, instructions, skills, policy, context, agents: manifest.agents }, issues: [] };
}

function sortIssues(issues: CanonIssue[]): CanonIssue[] {
  return [...issues].sort((a, b) => (a.file === b.file ? a.line - b.line : a.file < b.file ? -1 : 1));
}
