// Closing prices: each book's card as read just before the off (the closing line), for tests of CLV.
// Prices follow a seeded path, so the close is recorded by the path itself: the price of the last scrape before
// the off for sports cards, the live price a moment before the jump for racing.
import { BOOKIES } from './books.js';
import { isBettable } from './card-view.js';
import { iso } from './dates.js';
import { scrapeTime } from './drift.js';
import type { SimWorld } from './index.js';
import { offOf } from './lifecycle.js';
import { encodeMarketRef } from './market-ref.js';

export interface ClosingSelection {
  label: string;
  odds: number;
  slug?: string;
  line?: number | null;
  player?: string | null;
  market_ref?: string;
  number?: number;
}

export interface ClosingBook {
  bookie: string;
  /** When the closing card was read (the last scrape before the off; racing: just before the jump). */
  captured_at: string;
  markets: { market: string; label: string; tier?: string; selections: ClosingSelection[] }[];
}

export interface Closing {
  epk: string;
  kind: 'sports' | 'racing';
  status: 'prematch' | 'in_play' | 'finished';
  off_at: string;
  has_closing: boolean | null;
  books: ClosingBook[];
}

/** Why there is no close to show: the key names nothing, or its event has not gone off yet. */
export type NoClosing = { kind: 'unknown' } | { kind: 'not_off'; offMs: number };

/** The recorded close of a sports event (by epk) or a race (by racing key), per book; `bookie` narrows to one. */
export function closingOf(world: SimWorld, key: string, bookie?: string): Closing | NoClosing {
  const now = world.nowMs();
  const ev = world.findEvent(key);
  if (ev) {
    const off = offOf(world.seed, ev, world.forcedFinishes().get(ev.epk));
    if (now < off.offMs) return { kind: 'not_off', offMs: off.offMs };
    const capturedMs = scrapeTime(off.offMs - 1, world.priceEpochMs);
    const books =
      off.hasClosing !== true
        ? []
        : ev.links
            .filter((l) => l.linkedFromMs <= off.offMs && (!bookie || l.bookie === bookie))
            .map((l) => ({
              bookie: l.bookie,
              captured_at: iso(capturedMs),
              markets: world
                .card(ev, l.bookie)
                .map((m) => ({
                  market: m.market,
                  label: m.label,
                  tier: m.tier,
                  selections: m.selections.filter(isBettable).map((sel) => ({
                    label: sel.label,
                    slug: sel.slug,
                    line: sel.line,
                    player: sel.player,
                    market_ref: encodeMarketRef({
                      bookie: l.bookie,
                      epk: ev.epk,
                      market: m.market,
                      selection: sel.slug,
                    }),
                    odds: world.livePrice(l.bookie, ev.epk, m.market, sel, capturedMs),
                  })),
                }))
                .filter((m) => m.selections.length > 0),
            }));
    return {
      epk: ev.epk,
      kind: 'sports',
      status: world.status(ev, now),
      off_at: iso(off.offMs),
      has_closing: off.hasClosing,
      books,
    };
  }
  const race = world.raceByKey(key);
  if (!race) return { kind: 'unknown' };
  if (now < race.startMs) return { kind: 'not_off', offMs: race.startMs };
  const capturedMs = race.startMs - 1;
  return {
    epk: race.key,
    kind: 'racing',
    status: world.raceResulted(race, now) ? 'finished' : 'in_play',
    off_at: iso(race.startMs),
    has_closing: true,
    books: BOOKIES.filter((b) => !bookie || b === bookie).map((b) => ({
      bookie: b,
      captured_at: iso(capturedMs),
      markets: (['win', 'place'] as const).map((market) => ({
        market,
        label: market === 'win' ? 'Win' : 'Place',
        selections: race.runners.map((r) => ({
          label: r.name,
          number: r.number,
          odds: world.racePrice(b, race, r.number, market, capturedMs),
        })),
      })),
    })),
  };
}
