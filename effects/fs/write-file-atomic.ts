// Replacing a file so that readers and crashes see either the old or the new content, never a mix.
import { randomBytes } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * Write `content` to a temp file in the same directory, fsync it, rename it over `path`, then fsync
 * the directory so the rename itself survives a crash. The directory must exist. A failure names
 * `path` as its errno `path` (not the temp file, which the user never sees and yoke removes).
 */
export async function writeFileAtomic(path: string, content: Buffer | string, mode = 0o644): Promise<void> {
  const dir = dirname(path);
  const temp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await open(temp, 'wx', mode).catch((error: unknown) => {
    throw aboutDestination(error, path);
  });
  try {
    await handle.writeFile(content);
    await handle.chmod(mode); // the umask may have narrowed the mode given to open()
    await handle.sync();
  } catch (error) {
    await handle.close();
    await rm(temp, { force: true });
    throw aboutDestination(error, path);
  }
  await handle.close();
  try {
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw aboutDestination(error, path);
  }
  await syncDirectory(dir);
}

/** `error` with `path` as its errno path, so a message about it (errors/environment-fault.ts) names the file being replaced. */
function aboutDestination(error: unknown, path: string): unknown {
  if (error instanceof Error && typeof (error as NodeJS.ErrnoException).code === 'string') (error as NodeJS.ErrnoException).path = path;
  return error;
}

async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
