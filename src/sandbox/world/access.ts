// The routes' way to the generated world (the platform may run a placeholder until it loads).
import { ApiError } from '../core/reply.js';
import type { Sandbox } from '../core/sandbox.js';
import { SimWorld } from './index.js';

export function simWorld(sb: Sandbox): SimWorld {
  if (sb.world instanceof SimWorld) return sb.world;
  throw new ApiError(503, { detail: 'The simulated world is not loaded; restart the sandbox' });
}
