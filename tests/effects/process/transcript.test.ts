import { mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTranscript } from '../../../effects/process/transcript.js';

let loopDir: string;
beforeEach(async () => {
  loopDir = await mkdtemp(join(tmpdir(), 'yoke-transcript-'));
});
afterEach(async () => {
  await rm(loopDir, { recursive: true, force: true });
});

describe('openTranscript', () => {
  it('writes a one-line header and then the raw chunks', async () => {
    const transcript = await openTranscript(loopDir, '1-worker-k', '# header\nwith newline');
    transcript.write('out ');
    transcript.write(Buffer.from([0xff, 0x0a]));
    expect(await transcript.close()).toBeNull();
    expect(transcript.relativePath).toBe('.journal/transcripts/1-worker-k.log');
    const bytes = await readFile(join(loopDir, transcript.relativePath));
    expect(bytes.equals(Buffer.concat([Buffer.from('# header with newline\nout '), Buffer.from([0xff, 0x0a])]))).toBe(true);
  });

  it('picks the next free suffix instead of overwriting', async () => {
    const dir = join(loopDir, '.journal', 'transcripts');
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'k.log'), 'first');
    await writeFile(join(dir, 'k.2.log'), 'second');
    const transcript = await openTranscript(loopDir, 'k', '# third');
    await transcript.close();
    expect(transcript.relativePath).toBe('.journal/transcripts/k.3.log');
    expect(await readFile(join(dir, 'k.log'), 'utf8')).toBe('first');
    expect(await readFile(join(dir, 'k.2.log'), 'utf8')).toBe('second');
  });
});
