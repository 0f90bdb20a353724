// Opening a book's market card for an event: read it (queued behind the card limit, the member told how long),
// keep its ref and render it. /markets and the event picker under /events both open cards this way.

import type { MessageView } from '../../model/limits.js';
import { CARD_PATIENCE_MS, type CardRef, cardOf, cardQueuedMessage, saveCardRef } from '../card-ref.js';
import type { RefOwner } from '../refs.js';
import { cardView } from '../views/card.js';
import type { CatalogDeps } from './deps.js';

/** Reads the card of `cardRef` and returns its first page; `tell` shows the interim "queued" line, once. */
export async function openCard(
  ctx: CatalogDeps,
  cardRef: CardRef,
  owner: RefOwner,
  tell: (content: string) => Promise<unknown>,
): Promise<MessageView> {
  const told: Promise<unknown>[] = [];
  const card = await cardOf(ctx, cardRef, {
    maxQueueMs: CARD_PATIENCE_MS,
    onQueued: ({ estimatedWaitMs }) => {
      const edit = tell(cardQueuedMessage(estimatedWaitMs, ctx.gateway.marketsLimiter));
      edit.catch(() => undefined);
      told.push(edit);
    },
  });
  await Promise.all(told);
  const ref = await saveCardRef(ctx, cardRef, owner);
  return cardView({ card, eventName: cardRef.eventName, ref, page: 0, startTime: cardRef.startTime });
}
