// Key-by-key JSON edits: minimal insertions, comments kept, types checked, parts removed again.
import { describe, expect, it } from 'vitest';
import { findParts, partsInPlace, placeParts, removeParts, type JsonPart } from '../../../machines/retrofit/json-parts.js';

const hook: JsonPart = { kind: 'item', at: ['hooks', 'PreToolUse'], key: 'yoke gate', item: { matcher: '*', hooks: [{ type: 'command', command: 'yoke gate' }] } };
const fileName: JsonPart = { kind: 'member', at: ['context', 'fileName'], value: 'AGENTS.md', absent: ['AGENTS.md', 'GEMINI.md'] };

describe('JSON parts', () => {
  it('writes a new file whole, and finds its parts in place', () => {
    const text = placeParts(null, [hook, fileName], 'json');
    expect(JSON.parse(text)).toEqual({ hooks: { PreToolUse: [hook.item] }, context: { fileName: ['AGENTS.md', 'GEMINI.md'] } });
    const found = findParts(text, 'json', [hook, fileName]);
    expect(found.problem).toBeNull();
    expect(partsInPlace([hook, fileName], found.found ?? [])).toBe(true);
  });

  it('appends to the user\'s list, keeps comments and the user\'s formatting, and removes exactly what it added', () => {
    const user = '{\n  // mine\n  "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": []}]},\n  "context": {"fileName": "CONTEXT.md"}\n}\n';
    const placed = placeParts(user, [hook, fileName], 'jsonc');
    expect(placed).toContain('  // mine\n');
    expect(placed).toContain('{"matcher": "Bash", "hooks": []}');
    const found = findParts(placed, 'jsonc', [hook, fileName]);
    expect(partsInPlace([hook, fileName], found.found ?? [])).toBe(true);
    const removed = removeParts(placed, [hook, fileName], 'jsonc');
    expect(findParts(removed, 'jsonc', [hook]).found).toEqual([null]);
    expect(removed).toContain('{"matcher": "Bash", "hooks": []}');
  });

  it('adds its parts to a CRLF file with CRLF line breaks only', () => {
    const user = '{\r\n  "permissions": {\r\n    "allow": ["Bash(make test)"]\r\n  }\r\n}\r\n';
    const placed = placeParts(user, [hook], 'json');
    expect(JSON.parse(placed)).toMatchObject({ permissions: { allow: ['Bash(make test)'] }, hooks: { PreToolUse: [hook.item] } });
    expect(placed.replace(/\r\n/g, '')).not.toContain('\n');
  });

  it.each([
    ['not JSON', '{ "a": [ }', /^not valid JSON/],
    ['comments in strict JSON', '{ // no\n}', /^not valid JSON/],
    ['hooks as a list', '{ "hooks": [] }', /`hooks` is a list, where yoke expects an object/],
    ['PreToolUse as an object', '{ "hooks": { "PreToolUse": {} } }', /`hooks.PreToolUse` is an object, where yoke expects a list/],
    ['fileName as a number', '{ "context": { "fileName": 3 } }', /`context.fileName` is a number/],
  ])('refuses %s with its line', (_what, text, reason) => {
    const found = findParts(text, 'json', [hook, fileName]);
    expect(found.problem?.reason).toMatch(reason);
    expect(found.problem?.line).toBeGreaterThanOrEqual(1);
  });
});
