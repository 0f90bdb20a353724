// Boosts and promos a bet asks for (use_boost, betboost, promo_name, skip_if_no_promo), decided at bet time
// from the platform's race promos and boost tokens.
import { boostTokenAvailable, racePromos } from '../accounts/race-promos.js';
import type { SimWorld } from './index.js';
import type { Race } from './racing.js';

export interface PromoAsk {
  useBoost: boolean;
  betboost: boolean;
  promoName: string | undefined;
  skipIfNoPromo: boolean;
}

export type PromoDecision = { ok: true; boosted: boolean; promo: string | null } | { ok: false; error: string };

function label(race: Race): string {
  return `${race.track} R${race.race_num} on ${race.date}`;
}

export function decideRacingPromos(world: SimWorld, bookie: string, race: Race, ask: PromoAsk): PromoDecision {
  const boostable = boostTokenAvailable(bookie, race.date, race.track, race.race_num);
  if (ask.useBoost && !boostable) {
    return {
      ok: false,
      error: `boost_not_available: ${bookie} has no boost token for ${label(race)}; nothing was placed`,
    };
  }
  let promo: string | null = null;
  if (ask.promoName !== undefined || ask.skipIfNoPromo) {
    const offers = racePromos(world.racingMeetings(race.date), bookie).promos.filter(
      (p) => p.track === race.track && p.race_num === race.race_num,
    );
    const wanted = ask.promoName?.toLowerCase();
    const hit = wanted
      ? offers.find((p) => [p.promo_type, p.offer_type, p.offer_name].some((x) => String(x).toLowerCase() === wanted))
      : offers[0];
    if (hit) promo = ask.promoName ?? String(hit.offer_type);
    else if (ask.skipIfNoPromo) {
      return {
        ok: false,
        error: `promo_not_available: no ${ask.promoName ?? 'promo'} on ${label(race)} at ${bookie}; nothing was placed`,
      };
    }
  }
  return { ok: true, boosted: boostable && (ask.useBoost || ask.betboost), promo };
}

/** Sports carry no boost tokens or race promos: strict asks are refused, opportunistic ones place plainly. */
export function decideSportsPromos(ask: PromoAsk): PromoDecision {
  if (ask.useBoost)
    return { ok: false, error: 'boost_not_available: boost tokens apply to racing only; nothing was placed' };
  if (ask.skipIfNoPromo) {
    return {
      ok: false,
      error: `promo_not_available: no ${ask.promoName ?? 'promo'} for this sports bet; nothing was placed`,
    };
  }
  return { ok: true, boosted: false, promo: null };
}
