// Assertions on how the CLI reports a failure: the exit code and one clear stderr line, no stack trace.
import { expect } from 'vitest';
import type { YokeResult } from './yoke-process.js';

/** Lines of `stderr` that look like stack frames (`    at fn (file:1:2)`). */
export function stackLines(stderr: string): string[] {
  return stderr.split('\n').filter((line) => /^\s+at\s/.test(line));
}

/**
 * Assert that yoke exited with `code` and explained it in exactly one stderr line (warnings aside)
 * that starts with `yoke: ` and matches `pattern`, with no stack trace. Returns that line.
 */
export function expectRefusal(result: YokeResult, code: number, pattern: RegExp): string {
  expect(result.exitCode, result.stderr).toBe(code);
  expect(stackLines(result.stderr), result.stderr).toEqual([]);
  const lines = result.stderr.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('yoke: warning:'));
  expect(lines, result.stderr).toHaveLength(1);
  const [line = ''] = lines;
  expect(line).toMatch(/^yoke: /);
  expect(line).toMatch(pattern);
  return line;
}
