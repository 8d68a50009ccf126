// Reading and validating a journal file: JSON Lines, a hash chain, consecutive sequence numbers.
import { readFileSync } from 'node:fs';
import { JournalLineReader } from './journal-lines.js';
import { GENESIS_HASH } from '../journal-head.js';
import type { JournalRecord } from '../record.js';
import { JournalChain } from '../record-chain.js';

/** A journal read from disk, with where a torn tail (if any) starts. */
export interface JournalContents {
  records: JournalRecord[];
  /** hash of the last valid line (GENESIS_HASH for an empty journal) */
  lastHash: string;
  /** byte length of the valid prefix (everything up to and including the last newline) */
  validBytes: number;
  /** a partial last line left by a crash mid-write: its 1-based line number and byte length */
  torn: { line: number; bytes: number } | null;
}

/**
 * Parse and verify a whole journal. A final line without its newline is reported as `torn`
 * (a crash mid-append); any other malformed, out-of-order or out-of-chain line throws a
 * `workspace` YokeError naming the line, because silently skipping it could re-run an effect.
 */
export function readJournalFile(path: string): JournalContents {
  let buffer: Buffer;
  try {
    buffer = readFileSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      return { records: [], lastHash: GENESIS_HASH, validBytes: 0, torn: null };
    }
    throw error;
  }
  return parseJournal(buffer, path);
}

/** Parse journal bytes (exported for tests and benchmarks). */
export function parseJournal(buffer: Buffer, path: string): JournalContents {
  const records: JournalRecord[] = [];
  const chain = new JournalChain(lineLocator(path));
  let offset = 0;
  let lineNumber = 0;
  while (offset < buffer.length) {
    lineNumber += 1;
    const newline = buffer.indexOf(0x0a, offset);
    if (newline === -1) {
      return { records, lastHash: chain.lastHash, validBytes: offset, torn: { line: lineNumber, bytes: buffer.length - offset } };
    }
    records.push(chain.accept(buffer.toString('utf8', offset, newline), lineNumber));
    offset = newline + 1;
  }
  return { records, lastHash: chain.lastHash, validBytes: offset, torn: null };
}

/**
 * A journal's records, checked like `readJournalFile` does but streamed: one record at a time,
 * the file read through a fixed-size buffer, nothing kept. After iterating, `torn` and
 * `validBytes` describe the tail as `readJournalFile` would. `limitBytes` stops at an earlier
 * length (e.g. where a first pass ended, while a live run keeps appending).
 */
export class JournalStream implements Iterable<JournalRecord> {
  private readonly lines: JournalLineReader;
  private chain: JournalChain;

  constructor(readonly path: string, limitBytes?: number, chunkBytes?: number) {
    this.lines = new JournalLineReader(path, limitBytes, chunkBytes);
    this.chain = new JournalChain(lineLocator(path));
  }

  get torn(): { line: number; bytes: number } | null {
    return this.lines.torn;
  }

  get validBytes(): number {
    return this.lines.validBytes;
  }

  get lastHash(): string {
    return this.chain.lastHash;
  }

  *[Symbol.iterator](): Iterator<JournalRecord> {
    const chain = new JournalChain(lineLocator(this.path));
    this.chain = chain;
    for (const line of this.lines) yield chain.accept(line.text, line.number);
  }
}


/** How a file journal's messages name a position: `path:line` (line N holds record N). */
export function lineLocator(path: string): (line: number) => string {
  return (line) => `${path}:${line}`;
}
