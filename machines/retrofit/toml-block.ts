// yoke's part of a user's TOML file (Codex's .codex/config.toml): a marked block at the end, written
// with smol-toml's serializer and accepted only when parsing the whole file gives exactly the
// user's values plus yoke's (arrays of tables appended), so the merge is checked key by key.
import { parse, stringify } from 'smol-toml';
import { sameJson, type JsonValue } from './json-parts.js';

/** A TOML table as plain data. */
export type TomlTable = { [key: string]: JsonValue };

/** The TOML text of `value` (yoke's part). */
export function renderToml(value: TomlTable): string {
  const text = stringify(value);
  return text.endsWith('\n') ? text : `${text}\n`;
}

/** The user's values and yoke's merged: tables key by key, arrays (of tables) appended. */
export function mergeTables(base: TomlTable, added: TomlTable): TomlTable {
  const out: TomlTable = { ...base };
  for (const [key, value] of Object.entries(added)) {
    const existing = out[key];
    if (existing === undefined) out[key] = value;
    else if (Array.isArray(existing) && Array.isArray(value)) out[key] = [...existing, ...value];
    else if (isTable(existing) && isTable(value)) out[key] = mergeTables(existing, value);
    else out[key] = value;
  }
  return out;
}

function isTable(value: JsonValue | undefined): value is TomlTable {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Parse TOML into plain data (dates become ISO strings), or the parser's message with its line. */
export function parseToml(text: string): { value: TomlTable; problem: null } | { value: null; problem: { line: number; reason: string } } {
  try {
    return { value: JSON.parse(JSON.stringify(parse(text))) as TomlTable, problem: null };
  } catch (error) {
    const line = typeof (error as { line?: unknown }).line === 'number' ? (error as { line: number }).line : 1;
    const message = error instanceof Error ? error.message.split('\n')[0] ?? '' : String(error);
    return { value: null, problem: { line, reason: `not valid TOML (${message})` } };
  }
}

/**
 * Check that `combined` (the user's text with yoke's block) means the user's values plus `added`.
 * Null when it does; otherwise why not (e.g. the user's `hooks.PreToolUse` is an inline array,
 * which a table cannot extend).
 */
export function tomlMergeProblem(userText: string, combined: string, added: TomlTable): { line: number; reason: string } | null {
  const user = parseToml(userText);
  if (user.problem !== null) return user.problem;
  const merged = parseToml(combined);
  if (merged.problem !== null) return { line: merged.problem.line, reason: `adding yoke's tables would make it invalid TOML (${merged.problem.reason}); make the keys yoke adds (${Object.keys(added).join(', ')}) tables, not inline values` };
  if (!sameJson(merged.value, mergeTables(user.value, added))) return { line: 1, reason: `yoke's tables would change values of yours (${Object.keys(added).join(', ')} hold something else); merge them by hand` };
  return null;
}
