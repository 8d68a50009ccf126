// Reads yoke's shipped agent-facing text (canon/): the prompt and init template files that each
// lifecycle's descriptor names.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { lifecycleNamed, type LifecycleDescriptor } from '../machines/lifecycles/registry.js';

/** The canon folder next to the package (works from dist/ and from source). */
export function canonDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i += 1) {
    if (existsSync(join(dir, 'canon', 'manifest.yaml'))) return join(dir, 'canon');
    dir = dirname(dir);
  }
  throw new Error('canon/manifest.yaml not found next to the yoke package; the installation is incomplete');
}

/** The text of a canon file by its path under canon/ (a descriptor's CanonReader). */
export function readCanon(path: string): string {
  return readFileSync(join(canonDir(), path), 'utf8');
}

/** The bytes of a canon file by its path under canon/. */
export function readCanonBytes(path: string): Buffer {
  return readFileSync(join(canonDir(), path));
}

/** A lifecycle's init files (name in .loop/ → content, read by `read`: the shipped canon by default) and spec file names. */
export function lifecycleTemplates(lifecycle: Pick<LifecycleDescriptor, 'init'>, read: (path: string) => Buffer = readCanonBytes): { files: Record<string, Buffer>; spec: string[] } {
  const files: Record<string, Buffer> = {};
  for (const [name, path] of Object.entries(lifecycle.init.files)) files[name] = read(path);
  return { files, spec: [...lifecycle.init.spec] };
}

/** The init templates of the lifecycle called `mode`, or null if this yoke has none of that name. */
export function modeTemplates(mode: string): { files: Record<string, Buffer>; spec: string[] } | null {
  const lifecycle = lifecycleNamed(mode);
  return lifecycle ? lifecycleTemplates(lifecycle) : null;
}
