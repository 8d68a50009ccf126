// Reading a process's kernel status line (/proc/<pid>/stat) robustly.
import { readFileSync } from 'node:fs';

/**
 * The fields of `/proc/<pid>/stat` after `comm`. `comm` (field 2) is the executable name in
 * parentheses and may itself contain spaces and `)`, so the line is split after the LAST `)`:
 * index 0 is field 3 (state), index 2 is field 5 (pgrp), index 19 is field 22 (starttime).
 */
export function procStatFields(pid: number): string[] | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  const close = text.lastIndexOf(')');
  if (close < 0) return null;
  return text.slice(close + 1).trim().split(/\s+/);
}
