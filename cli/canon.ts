// Reads yoke's shipped agent-facing text (canon/): prompt templates and init templates per mode.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { z } from 'zod';
import { modeSchema, type Mode } from '../config/types.js';

const manifestSchema = z.object({
  version: z.number(),
  prompts: z.record(z.string(), z.object({ path: z.string() })),
  modes: z.partialRecord(modeSchema, z.object({ init: z.record(z.string(), z.string()), spec: z.array(z.string()) })),
});
export type CanonManifest = z.infer<typeof manifestSchema>;

let cached: { dir: string; manifest: CanonManifest } | null = null;

/** The canon folder next to the package (works from dist/ and from source). */
export function canonDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i += 1) {
    if (existsSync(join(dir, 'canon', 'manifest.yaml'))) return join(dir, 'canon');
    dir = dirname(dir);
  }
  throw new Error('canon/manifest.yaml not found next to the yoke package; the installation is incomplete');
}

/** The parsed canon manifest. */
export function canonManifest(): { dir: string; manifest: CanonManifest } {
  if (!cached) {
    const dir = canonDir();
    cached = { dir, manifest: manifestSchema.parse(parse(readFileSync(join(dir, 'manifest.yaml'), 'utf8'))) };
  }
  return cached;
}

/** A prompt template's text by role. */
export function readPrompt(role: string): string {
  const { dir, manifest } = canonManifest();
  const entry = manifest.prompts[role];
  if (!entry) throw new Error(`canon has no prompt for role ${role}`);
  return readFileSync(join(dir, entry.path), 'utf8');
}

/** The init files (name in .loop/ → content) and spec file names of a mode, or null if unknown. */
export function modeTemplates(mode: Mode): { files: Record<string, Buffer>; spec: string[] } | null {
  const { dir, manifest } = canonManifest();
  const entry = manifest.modes[mode];
  if (!entry) return null;
  const files: Record<string, Buffer> = {};
  for (const [name, path] of Object.entries(entry.init)) files[name] = readFileSync(join(dir, path));
  return { files, spec: entry.spec };
}
