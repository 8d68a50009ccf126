// One snapshot of every declared artifact, under the per-file and per-snapshot limits.
import type { ArtifactSnapshot } from '../../machines/acceptance/check-report.js';
import { hashArtifact } from './hash-artifact.js';

/** How much hashing one snapshot may do. */
export interface ArtifactLimits {
  maxFileBytes: number;
  maxSnapshotBytes: number;
  maxSnapshotMs: number;
}

/** The hashing limits (DESIGN §12): per file, and per snapshot in bytes and time. */
export const ARTIFACT_LIMITS: ArtifactLimits = {
  maxFileBytes: 512 * 1024 * 1024,
  maxSnapshotBytes: 1024 * 1024 * 1024,
  maxSnapshotMs: 10_000,
};

/**
 * Each artifact's state, in order. The snapshot's byte budget and deadline are shared: once spent,
 * the remaining artifacts are `over-budget` or `timed-out`, which fails their bindings.
 */
export async function snapshotArtifacts(
  root: string, paths: readonly string[], signal: AbortSignal, limits: ArtifactLimits = ARTIFACT_LIMITS,
): Promise<ArtifactSnapshot[]> {
  const deadline = Date.now() + limits.maxSnapshotMs;
  let remainingBytes = limits.maxSnapshotBytes;
  const snapshots: ArtifactSnapshot[] = [];
  for (const path of paths) {
    const found = await hashArtifact(root, path, { maxFileBytes: limits.maxFileBytes, remainingBytes, deadline, signal });
    if (found.state === 'file' && found.size !== null) remainingBytes -= found.size;
    snapshots.push(found);
  }
  return snapshots;
}
