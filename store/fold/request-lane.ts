// Which lane of a parallel stories run an effect request belongs to (DESIGN §10); pure, so replay can ask too.
import type { KeyedRequest } from './run-fold.js';

/** The lane a request runs in; `''` for the main working tree. */
export function laneOfRequest(request: KeyedRequest): string {
  const lane = (request.request.params as { lane?: unknown }).lane;
  return typeof lane === 'string' ? lane : '';
}

/** True when `request` names a lane. */
export function hasLane(request: KeyedRequest): boolean {
  return laneOfRequest(request) !== '';
}
