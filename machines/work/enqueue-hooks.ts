// Enqueues the `hook.fire` requests of one hook event from inside an `enqueueActions` block.
import type { Config, HookEvent } from '../../config/types.js';
import type { EffectRequest } from '../effects.js';
import { hookRequests } from './work-context.js';

/** What `enqueueActions` hands its callback, as far as requests go. */
type EnqueueRequest = (action: { type: 'request'; params: EffectRequest }) => void;

/** One `request` per hook of `event`, in declaration order (none when yoke.conf declares none). */
export function enqueueHooks(enqueue: EnqueueRequest, config: Config, event: HookEvent, iteration: number): void {
  for (const params of hookRequests(config, event, iteration)) enqueue({ type: 'request', params });
}
