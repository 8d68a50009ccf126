// An agent call's transcript under `.loop/.journal/transcripts/`: created once, never overwritten.
import { mkdir, open, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import type { WriteStream } from 'node:fs';
import { JOURNAL_LAYOUT, journalEntry } from '../../config/workspace-layout.js';

/** An open transcript: raw output is appended in arrival order. */
export interface Transcript {
  /** path relative to `.loop/` (posix) */
  relativePath: string;
  write(chunk: Buffer | string): void;
  /** flush and close; resolves the first write error, if any, instead of throwing */
  close(): Promise<Error | null>;
}

/**
 * Create `.journal/transcripts/<name>.log` with `header` as its first line. The file is opened with
 * `wx`: if the name is taken, `<name>.2.log`, `<name>.3.log`, … are tried, so no transcript is ever
 * overwritten.
 */
export async function openTranscript(loopDir: string, name: string, header: string): Promise<Transcript> {
  const dir = journalEntry(loopDir, 'transcripts');
  await mkdir(dir, { recursive: true });
  let handle: FileHandle | null = null;
  let fileName = '';
  for (let attempt = 1; handle === null; attempt += 1) {
    fileName = attempt === 1 ? `${name}.log` : `${name}.${attempt}.log`;
    try {
      handle = await open(join(dir, fileName), 'wx', 0o644);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  const stream: WriteStream = handle.createWriteStream();
  let failure: Error | null = null;
  stream.on('error', (error) => (failure ??= error));
  stream.write(`${header.replace(/\n/g, ' ')}\n`);
  return {
    relativePath: `.journal/${JOURNAL_LAYOUT.transcripts}/${fileName}`,
    write(chunk) {
      if (failure === null) stream.write(chunk);
    },
    close() {
      return new Promise((resolve) => {
        if (stream.closed) resolve(failure);
        else {
          stream.once('close', () => resolve(failure));
          stream.end();
        }
      });
    },
  };
}
