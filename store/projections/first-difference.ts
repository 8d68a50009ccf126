// Where two JSON values first differ: the path and both sides, for divergence reports.
import { canonical } from '../fold/run-fold.js';

/** The first difference between `journal` and `machine`, or null when they are equal as JSON. */
export interface Difference {
  /** dotted path from the compared root (`params.prompt`, `result.changed.1`); '' for the roots */
  path: string;
  journal: unknown;
  machine: unknown;
}

/** Compare two JSON values depth-first (object keys sorted), returning the first difference. */
export function firstDifference(journal: unknown, machine: unknown, path = ''): Difference | null {
  if (canonical(journal) === canonical(machine)) return null;
  if (isRecord(journal) && isRecord(machine)) {
    const keys = [...new Set([...Object.keys(journal), ...Object.keys(machine)])].sort();
    for (const key of keys) {
      const inner = firstDifference(journal[key], machine[key], join(path, key));
      if (inner) return inner;
    }
  }
  if (Array.isArray(journal) && Array.isArray(machine)) {
    for (let index = 0; index < Math.max(journal.length, machine.length); index += 1) {
      const inner = firstDifference(journal[index], machine[index], join(path, String(index)));
      if (inner) return inner;
    }
  }
  return { path, journal, machine };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function join(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}
