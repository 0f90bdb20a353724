// The betting fault rules that strike one bet, decided when the bet is submitted (route and session known).
import { DEFAULT_PRICE_MOVE } from '../core/faults.js';
import type { Sandbox } from '../core/sandbox.js';
import type { BookmakerRules } from '../world/placement.js';

export function bookmakerRules(sb: Sandbox, path: string, sessionId: string): BookmakerRules | undefined {
  const moved = sb.faults.strike('price_moved', path, [sessionId]);
  const max = sb.faults.strike('max_stake', path, [sessionId]);
  // A session marked restricted through /_sandbox/accounts/restrict refuses as the restricted fault does.
  const restricted =
    sb.accounts.sessionById(sessionId)?.restricted || sb.faults.strike('restricted', path, [sessionId]);
  if (!moved && !max && !restricted) return undefined;
  return {
    ...(moved ? { priceFactor: moved.factor ?? DEFAULT_PRICE_MOVE } : {}),
    ...(max?.max_stake !== undefined ? { maxStake: max.max_stake } : {}),
    ...(restricted ? { restricted: true } : {}),
  };
}
