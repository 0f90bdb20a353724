import type { BotContext } from './context.js';
import { getRef, putRef } from './refs.js';
import { UserFacingError } from './user-errors.js';

/** What a card's buttons and menus point at, stored under a short ref (custom ids hold 100 characters). */
export interface CardRef {
  epk: string;
  bookie: string;
  eventName: string;
  tier?: string;
  market?: string;
}

export const saveCardRef = (ctx: BotContext, ref: CardRef) => putRef(ctx.store, ref);

export async function loadCardRef(ctx: BotContext, ref: string): Promise<CardRef> {
  const found = await getRef<CardRef>(ctx.store, ref);
  if (!found) throw new UserFacingError('This card is too old to use. Run /markets again.');
  return found;
}

export async function cardOf(ctx: BotContext, ref: CardRef) {
  return ctx.catalog.loadCard(ref.epk, ref.bookie, {
    ...(ref.tier ? { tier: ref.tier } : {}),
    ...(ref.market ? { market: ref.market } : {}),
  });
}
