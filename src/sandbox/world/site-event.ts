// site_event_id checks shared by /v3/markets, place_bet and price_check (rule 8 of /v3/markets).
import type { LinkState } from './index.js';

export type SiteEventCheck = 'unbound' | 'confirmed' | 'conflict' | 'no_card';

export interface SiteEventDecision {
  check: SiteEventCheck;
  /** The service's own link for the event and book, if linked. */
  spine: string | null;
  /** Whether the card may be served (and bets routed). */
  serveCard: boolean;
}

/**
 * `callerId`: the caller's site_event_id. `cardHeldFor(id)`: whether the book holds a card for that id.
 * Unlinked events are served on the caller's say-so only for the id the book itself uses for the event.
 */
export function checkSiteEventId(
  link: LinkState,
  callerId: string,
  cardHeldFor: (id: string) => boolean,
): SiteEventDecision {
  if (link.linked) {
    if (link.siteEventId === callerId) return { check: 'confirmed', spine: link.siteEventId, serveCard: true };
    return { check: cardHeldFor(callerId) ? 'conflict' : 'no_card', spine: link.siteEventId, serveCard: false };
  }
  return { check: 'unbound', spine: null, serveCard: link.siteEventId !== null && link.siteEventId === callerId };
}
