// A SKILL.md: YAML frontmatter (name, description) between `---` lines, then the body.
import { isMap, LineCounter, parseDocument } from 'yaml';
import type { CanonIssue } from './canon-issue.js';

/** A parsed skill. */
export interface SkillFile {
  name: string;
  description: string;
  /** the text after the frontmatter */
  body: string;
  /** the whole file as written in the canon */
  text: string;
}

/** The agentskills.io name rule every CLI applies: lowercase words joined by hyphens, at most 64 characters. */
export const SKILL_NAME = /^[a-z0-9]+(-[a-z0-9]+)*$/;
/** The longest description the skill standard allows. */
export const MAX_DESCRIPTION = 1024;
/** Gemini CLI runs `!{…}`, injects `@{…}` and replaces `{{args}}` in a command's prompt. */
const GEMINI_SYNTAX = [/!\{/, /@\{/, /\{\{args\}\}/];

/** Parse `text` (the file `file`); issues carry file:line. */
export function parseSkillFile(file: string, text: string): { skill: SkillFile | null; issues: CanonIssue[] } {
  const lines = text.split('\n');
  if (lines[0]?.trimEnd() !== '---') return { skill: null, issues: [{ file, line: 1, message: 'must start with a `---` line opening the frontmatter (name, description)' }] };
  const close = lines.findIndex((line, index) => index > 0 && line.trimEnd() === '---');
  if (close < 0) return { skill: null, issues: [{ file, line: 1, message: 'the frontmatter opened on line 1 is never closed with a `---` line' }] };
  const issues: CanonIssue[] = [];
  const counter = new LineCounter();
  const doc = parseDocument(lines.slice(1, close).join('\n'), { lineCounter: counter, uniqueKeys: true });
  for (const error of doc.errors) issues.push({ file, line: (error.linePos?.[0].line ?? 1) + 1, message: `frontmatter is not valid YAML: ${error.message.split('\n')[0] ?? ''}` });
  if (issues.length > 0) return { skill: null, issues };
  if (!isMap(doc.contents)) return { skill: null, issues: [{ file, line: 2, message: 'frontmatter must be a mapping with `name` and `description`' }] };
  const data = doc.toJS() as Record<string, unknown>;
  const lineOfKey = (key: string): number => {
    const index = lines.slice(1, close).findIndex((line) => line.startsWith(`${key}:`));
    return index < 0 ? 2 : index + 2;
  };
  const name = data.name;
  const description = data.description;
  if (typeof name !== 'string' || name === '') issues.push({ file, line: lineOfKey('name'), message: 'frontmatter needs `name`: the skill\'s folder name' });
  else if (!SKILL_NAME.test(name) || name.length > 64) issues.push({ file, line: lineOfKey('name'), message: `name \`${name}\` must be lowercase words joined by hyphens, at most 64 characters` });
  if (typeof description !== 'string' || description.trim() === '') issues.push({ file, line: lineOfKey('description'), message: 'frontmatter needs `description`: when to use the skill, in one sentence' });
  else if (description.length > MAX_DESCRIPTION) issues.push({ file, line: lineOfKey('description'), message: `description is ${description.length} characters; keep it to ${MAX_DESCRIPTION}` });
  const body = lines.slice(close + 1).join('\n');
  if (body.trim() === '') issues.push({ file, line: close + 1, message: 'the body after the frontmatter is empty' });
  lines.slice(close + 1).forEach((line, index) => {
    const hit = GEMINI_SYNTAX.find((pattern) => pattern.test(line));
    if (hit) issues.push({ file, line: close + 2 + index, message: `\`${hit.source.replace(/\\/g, '')}\` would run or inject text in a Gemini command; rephrase it` });
  });
  if (issues.length > 0 || typeof name !== 'string' || typeof description !== 'string') return { skill: null, issues };
  return { skill: { name, description, body, text }, issues };
}
