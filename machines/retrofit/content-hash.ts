// The hash yoke records for generated content: `sha256:<hex>` of the UTF-8 bytes.
import { createHash } from 'node:crypto';

/** `sha256:<hex>` of `content` (a string is hashed as UTF-8). */
export function contentHash(content: string | Uint8Array): string {
  return `sha256:${createHash('sha256').update(content).digest('hex')}`;
}
