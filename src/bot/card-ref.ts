import { setTimeout as sleep } from 'node:timers/promises';
import type { Tier } from '../gateway/index.js';
import { CardLimitError } from './catalog.js';
import type { BotContext } from './context.js';
import { getRef, putRef } from './refs.js';
import { UserFacingError } from './user-errors.js';

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

/** How long a /markets reply may wait for a card slot; a deferred reply stays editable for 15 minutes. */
const CARD_PATIENCE_MS = 150_000;

/**
 * The card, waiting its turn when the gateway's card limit (120 a minute) is used up: `onQueued` tells the user
 * how long, then the read is tried again, so a burst of commands ends in cards rather than refusals.
 */
export async function cardWhenFree(ctx: BotContext, ref: CardRef, onQueued: (waitMs: number) => Promise<unknown>) {
  const deadline = Date.now() + CARD_PATIENCE_MS;
  for (;;) {
    try {
      return await cardOf(ctx, ref);
    } catch (err) {
      if (!(err instanceof CardLimitError) || Date.now() + err.waitMs > deadline) throw err;
      await onQueued(err.waitMs);
      await sleep(err.waitMs);
    }
  }
}

export function cardQueuedMessage(waitMs: number): string {
  return `Queued behind the gateway's limit of 120 cards a minute: your card arrives in about ${Math.max(1, Math.ceil(waitMs / 1000))} s.`;
}
