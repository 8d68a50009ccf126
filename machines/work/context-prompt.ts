// What the context layer adds to an agent call (DESIGN §9): the block opening the prompt, the files yoke holds (pure).
import { withContextBlock } from '../context/context-block.js';
import type { ProtectedContextFile } from '../context/context-files.js';
import type { WorkContext } from './work-context.js';

/** The prompt opened by the block the last `context.read` returned; the prompt itself without the layer (byte for byte). */
export function promptWithContext(context: Pick<WorkContext, 'contextBlock'>, prompt: string): string {
  return withContextBlock(context.contextBlock ?? '', prompt);
}

/** `{ protect }` for an agent call's params with the context layer: the blobs its files must be put back to; absent without it. */
export function protectParam(context: Pick<WorkContext, 'contextGuard'>): { protect?: Record<ProtectedContextFile, string | null> } {
  return context.contextGuard == null ? {} : { protect: context.contextGuard };
}
