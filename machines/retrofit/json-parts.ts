// Key-by-key edits of a user's JSON settings file: yoke adds its parts (an item in an array, a name
// in a list of names) with minimal text edits, so every byte of the user's own content stays.
import { applyEdits, findNodeAtLocation, format, modify, parseTree, printParseErrorCode, type FormattingOptions, type Node, type ParseError } from 'jsonc-parser';
import { lineEnding } from './line-ending.js';

/** A JSON value. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** One thing yoke owns inside a JSON file. */
export type JsonPart =
  /** an object in the array at `at`, recognised by a string value `key` anywhere inside it */
  | { kind: 'item'; at: string[]; key: string; item: JsonValue }
  /** `value` in the list of names at `at` (a single string there becomes a list); `absent` is the list to create when there is none */
  | { kind: 'member'; at: string[]; value: string; absent: string[] };

/** What a file holds of the parts: per part the current item / whether the name is there. */
export type FoundParts = JsonValue[];

/** Why a file cannot be edited: not JSON, or a value of the wrong type on a part's path. */
export interface JsonProblem {
  line: number;
  column: number;
  reason: string;
}

/** How a file's text is read: strict JSON (Claude Code) or JSON with comments (Gemini CLI). */
export type JsonDialect = 'json' | 'jsonc';

function position(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: (before.at(-1)?.length ?? 0) + 1 };
}

function typeName(value: unknown): string {
  return Array.isArray(value) ? 'a list' : value === null ? 'null' : typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function contains(value: JsonValue, key: string): boolean {
  if (value === key) return true;
  if (Array.isArray(value)) return value.some((item) => contains(item, key));
  if (value !== null && typeof value === 'object') return Object.values(value).some((item) => contains(item, key));
  return false;
}

/** Parse `text`; null tree for an empty document. A syntax error is a problem. */
function parse(text: string, dialect: JsonDialect): { tree: Node | undefined; problem: JsonProblem | null } {
  const errors: ParseError[] = [];
  const tree = parseTree(text, errors, { allowTrailingComma: dialect === 'jsonc', disallowComments: dialect === 'json' });
  const first = errors[0];
  if (first) return { tree, problem: { ...position(text, first.offset), reason: `not valid JSON (${printParseErrorCode(first.error)})` } };
  if (tree === undefined || tree.type !== 'object') return { tree, problem: { line: 1, column: 1, reason: 'the settings must be a JSON object' } };
  return { tree, problem: null };
}

/** The index of the part's item in its array, or -1. */
function itemIndex(list: JsonValue[], key: string): number {
  return list.findIndex((entry) => contains(entry, key));
}

/**
 * What `text` holds of `parts`, or why it cannot be edited (a syntax error, or a value of the wrong
 * type where a part goes: every key on the path must be an object, the last an array / a name list).
 */
export function findParts(text: string, dialect: JsonDialect, parts: readonly JsonPart[]): { found: FoundParts; problem: null } | { found: null; problem: JsonProblem } {
  const { tree, problem } = parse(text, dialect);
  if (problem !== null || tree === undefined) return { found: null, problem: problem ?? { line: 1, column: 1, reason: 'empty' } };
  const found: FoundParts = [];
  for (const part of parts) {
    for (let depth = 1; depth < part.at.length; depth += 1) {
      const node = findNodeAtLocation(tree, part.at.slice(0, depth));
      if (node !== undefined && node.type !== 'object') {
        return { found: null, problem: { ...position(text, node.offset), reason: `\`${part.at.slice(0, depth).join('.')}\` is ${typeName(jsonValueOf(node))}, where yoke expects an object` } };
      }
    }
    const node = findNodeAtLocation(tree, part.at);
    const value = node === undefined ? undefined : jsonValueOf(node);
    const where = node === undefined ? null : position(text, node.offset);
    switch (part.kind) {
      case 'item':
        if (value === undefined) found.push(null);
        else if (!Array.isArray(value)) return { found: null, problem: { ...where!, reason: `\`${part.at.join('.')}\` is ${typeName(value)}, where yoke expects a list` } };
        else found.push(value[itemIndex(value, part.key)] ?? null);
        break;
      case 'member':
        if (value === undefined) found.push(false);
        else if (typeof value === 'string') found.push(value === part.value);
        else if (Array.isArray(value) && value.every((entry) => typeof entry === 'string')) found.push(value.includes(part.value));
        else return { found: null, problem: { ...where!, reason: `\`${part.at.join('.')}\` is ${typeName(value)}, where yoke expects a file name or a list of them` } };
        break;
    }
  }
  return { found, problem: null };
}

function jsonValueOf(node: Node): JsonValue {
  switch (node.type) {
    case 'object':
      return Object.fromEntries((node.children ?? []).map((pair) => [String(pair.children?.[0]?.value), pair.children?.[1] ? jsonValueOf(pair.children[1]) : null]));
    case 'array':
      return (node.children ?? []).map(jsonValueOf);
    case 'property':
      return node.children?.[1] ? jsonValueOf(node.children[1]) : null;
    case 'string':
    case 'number':
    case 'boolean':
    case 'null':
      return node.value as JsonValue;
  }
}

/** True when what the file holds is exactly the parts as yoke wants them. */
export function partsInPlace(parts: readonly JsonPart[], found: FoundParts): boolean {
  return parts.every((part, index) => (part.kind === 'item' ? sameJson(found[index] ?? null, part.item) : found[index] === true));
}

/** Deep equality of JSON values (key order ignored). */
export function sameJson(a: unknown, b: unknown): boolean {
  return canonicalJson(a) === canonicalJson(b);
}

/** JSON with sorted keys: the form yoke hashes. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.keys(value).sort().map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The indentation and line ending the file already uses (two spaces and LF when it shows none). */
function formatting(text: string): FormattingOptions {
  const indented = /\n([ \t]+)["}\]]/.exec(text)?.[1] ?? '  ';
  const eol = lineEnding(text);
  return indented.startsWith('\t') ? { insertSpaces: false, tabSize: 1, eol } : { insertSpaces: true, tabSize: indented.length, eol };
}

/** One minimal edit (only the new text is formatted), applied. */
function edit(text: string, path: Array<string | number>, value: unknown, isArrayInsertion: boolean): string {
  const edits = modify(text, path, value, { isArrayInsertion });
  const next = applyEdits(text, edits);
  const first = edits[0];
  if (first === undefined) return next;
  return applyEdits(next, format(next, { offset: first.offset, length: first.content.length }, formatting(text)));
}

/** `text` with every part in place (found by `findParts` on the same text). A new file is written whole. */
export function placeParts(text: string | null, parts: readonly JsonPart[], dialect: JsonDialect): string {
  if (text === null) {
    let fresh = '{}';
    for (const part of parts) fresh = placeOne(fresh, part, dialect);
    return `${JSON.stringify(JSON.parse(fresh), null, 2)}\n`;
  }
  let next = text;
  for (const part of parts) next = placeOne(next, part, dialect);
  return next;
}

function placeOne(text: string, part: JsonPart, dialect: JsonDialect): string {
  const { tree } = parse(text, dialect);
  const node = tree && findNodeAtLocation(tree, part.at);
  const value = node === undefined ? undefined : jsonValueOf(node);
  switch (part.kind) {
    case 'item': {
      if (!Array.isArray(value)) return edit(text, part.at, [part.item], false);
      const index = itemIndex(value, part.key);
      if (index < 0) return edit(text, [...part.at, -1], part.item, true);
      return sameJson(value[index], part.item) ? text : edit(text, [...part.at, index], part.item, false);
    }
    case 'member':
      if (value === undefined) return edit(text, part.at, part.absent, false);
      if (typeof value === 'string') return value === part.value ? text : edit(text, part.at, [value, part.value], false);
      if (Array.isArray(value) && !value.includes(part.value)) return edit(text, [...part.at, -1], part.value, true);
      return text;
  }
}

/**
 * `text` without the array item at `index` of the array at `at`, and the comma that joined it.
 * (jsonc-parser 3.3.1's `modify` with `undefined` on an array index leaves invalid JSON when it
 * removes the last item, so yoke cuts the text itself.)
 */
function removeArrayItem(text: string, tree: Node, at: string[], index: number): string {
  const items = findNodeAtLocation(tree, at)?.children ?? [];
  const item = items[index];
  if (item === undefined) return text;
  const previous = items[index - 1];
  const next = items[index + 1];
  const [start, end] = previous !== undefined ? [previous.offset + previous.length, item.offset + item.length]
    : next !== undefined ? [item.offset, next.offset]
      : [item.offset, item.offset + item.length];
  return `${text.slice(0, start)}${text.slice(end)}`;
}

/** `text` without the parts (items removed, names taken out of their lists); other content stays. */
export function removeParts(text: string, parts: readonly JsonPart[], dialect: JsonDialect): string {
  let next = text;
  for (const part of parts) {
    const { tree } = parse(next, dialect);
    const node = tree && findNodeAtLocation(tree, part.at);
    const value = node === undefined ? undefined : jsonValueOf(node);
    if (tree === undefined || (!Array.isArray(value) && typeof value !== 'string')) continue;
    switch (part.kind) {
      case 'item': {
        const index = Array.isArray(value) ? itemIndex(value, part.key) : -1;
        if (index >= 0) next = removeArrayItem(next, tree, part.at, index);
        break;
      }
      case 'member': {
        if (value === part.value || (Array.isArray(value) && sameJson(value, part.absent))) next = applyEdits(next, modify(next, part.at, undefined, {}));
        else if (Array.isArray(value) && value.includes(part.value)) next = removeArrayItem(next, tree, part.at, value.indexOf(part.value));
        break;
      }
    }
  }
  return next;
}
