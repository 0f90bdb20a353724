// The simulated bookmakers and what each one offers.

export const BOOKIES = ['bookie_a', 'bookie_b', 'bookie_c'] as const;
export type Bookie = (typeof BOOKIES)[number];

export function isBookie(text: unknown): text is Bookie {
  return typeof text === 'string' && (BOOKIES as readonly string[]).includes(text);
}

/** Rule 6 of /v3/markets: bookie_b does not take market_ref bets (422). */
export function marketRefBettingEnabled(bookie: string): boolean {
  return bookie === 'bookie_a' || bookie === 'bookie_c';
}

/** Offered by bookie_a only: stacked and same-event multis, and basketball betting. */
export function bookieOnlyFeature(bookie: string): boolean {
  return bookie === 'bookie_a';
}

/**
 * Why a book takes no bets on a sport (the spec: basketball betting is offered by one bookmaker only), or null when
 * it takes them. Such a book still lists the event, but its card holds no proposition ids for it (decision 1995).
 */
export function sportNotOffered(bookie: string, sport: string): string | null {
  if (sport === 'basketball' && !bookieOnlyFeature(bookie)) {
    return `not_offered: basketball betting is offered by bookie_a only, not ${bookie}`;
  }
  return null;
}

const SITE_PREFIX: Record<Bookie, string> = { bookie_a: 'A', bookie_b: 'BB', bookie_c: 'C' };

/** The bookmaker's own event id format. */
export function siteEventIdFormat(bookie: Bookie, n: number): string {
  return `${SITE_PREFIX[bookie]}-${String(n).padStart(8, '0')}`;
}
