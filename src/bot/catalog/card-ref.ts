import type { MarketsLimiter, Tier } from '../../gateway/index.js';
import { UserFacingError } from '../model/user-facing-error.js';
import type { BotStore } from '../store/index.js';
import type { CardAdmission, Catalog } from './catalog.js';
import { getRef, putRef, type RefOwner } from './refs.js';

/** What a card's buttons and menus point at, stored under a short ref (custom ids hold 100 characters). */
export interface CardRef {
  epk: string;
  bookie: string;
  eventName: string;
  /** The event's start (ISO 8601), for the card's heading. */
  startTime?: string;
  tier?: Tier;
  market?: string;
}

/** Saved for the channel the card is shown in: its buttons work there only. */
export const saveCardRef = (ctx: { store: BotStore; catalog: Catalog }, ref: CardRef, owner: RefOwner) =>
  putRef(ctx.store, ref, owner);

export async function loadCardRef(ctx: { store: BotStore; catalog: Catalog }, ref: string): Promise<CardRef> {
  const found = await getRef<CardRef>(ctx.store, ref);
  if (!found) throw new UserFacingError('This card is too old to use. Run /markets again.');
  return found;
}

export async function cardOf(ctx: { store: BotStore; catalog: Catalog }, ref: CardRef, admission: CardAdmission = {}) {
  return ctx.catalog.loadCard(
    ref.epk,
    ref.bookie,
    {
      ...(ref.tier ? { tier: ref.tier } : {}),
      ...(ref.market ? { market: ref.market } : {}),
    },
    admission,
  );
}

/**
 * How long a /markets reply may wait for a card slot (a deferred reply stays editable for 15 minutes): a burst of
 * commands ends in cards rather than refusals, each told how long it queues.
 */
export const CARD_PATIENCE_MS = 150_000;

/** The interim reply of a card read queued behind the client's card limit. */
export function cardQueuedMessage(waitMs: number, limit: Pick<MarketsLimiter, 'perMinute' | 'windowMs'>): string {
  const per = limit.windowMs === 60_000 ? 'a minute' : `per ${Math.round(limit.windowMs / 1000)} s`;
  return `Queued behind the gateway's limit of ${limit.perMinute} cards ${per}: your card arrives in about ${Math.max(1, Math.ceil(waitMs / 1000))} s.`;
}
