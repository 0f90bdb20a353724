// The simulated bookmakers' world: fixtures, racing, cards, prices, lifecycle and settlement.
// Everything is a pure function of the seed and the sandbox clock, plus the few things tests force
// (finishes, price moves) and the bets placed, kept here for settlement.
import type { Ledger } from '../accounts/ledger.js';
import type { SandboxClock } from '../core/clock.js';
import { type Bookie, sportNotOffered } from './books.js';
import { buildCard, type CardMarket, type CardSelection, type Outcome, withoutIds } from './cards.js';
import { addDays, dayOf, dayStartMs } from './dates.js';
import { DRIFT_STEP_MS, type ForcedDrift, priceAt, scrapeTime } from './drift.js';
import { finalScore, statusAt } from './lifecycle.js';
import { unit } from './prng.js';
import type { PromoRace, PromoSportsEvent, RacingMeeting } from './promo-sources.js';
import {
  buildRace,
  findTrack,
  finishingOrder,
  localDay,
  normaliseRaceType,
  RACES_PER_MEETING,
  type Race,
  raceStartMs,
  TRACKS,
  type TrackDef,
} from './racing.js';
import { RollingLimit } from './rate-limit.js';
import { type BetOutcome, legWins, sportsOutcome } from './settlement.js';
import { epkDay, outrights, type SportEvent, sportsDay } from './sports.js';

/**
 * A bet-boost card (sports or racing) goes on an event at least this far from its start, so a card a client
 * has just listed stays placeable for a while even on a fast clock (3 hours are 3.6 real minutes at speed 50).
 */
export const PROMO_CARD_LEAD_MS = 3 * 60 * 60_000;
/** Days from today (UTC) searched for promo fixtures: far enough that the lead always finds some. */
const PROMO_DAYS = 3;

/** How a placed bet is decided, kept by the betting routes when they record it. */
export type PlacedBet =
  | { kind: 'sports'; epk: string; market: string; outcome: Outcome; chance: number; player: boolean }
  | { kind: 'racing'; raceKey: string; legs: { runner: number; within: number }[] }
  | {
      kind: 'sgm';
      epk: string;
      legs: { market: string; outcome: Outcome; chance: number; player: boolean }[];
    };

export interface WorldDump {
  startDay: string;
  /** Absent in dumps from before price epochs: steps then counted from 1970. */
  priceEpochMs?: number;
  forcedFinish: [string, number][];
  drifts: ForcedDrift[];
  placed: [string, PlacedBet][];
  betSeq: number;
  recentPrices: [string, { price: number; atMs: number }][];
  cardHits: [string, number[]][];
}

export type LinkState =
  | { linked: true; siteEventId: string }
  | { linked: false; siteEventId: string | null; linksAtMs: number | null };

const DAYS_BACK = 7;
const DAYS_AHEAD = 7;

export class SimWorld {
  readonly seed: number;
  readonly clock: SandboxClock;
  /** The UTC day the clock started on: the world spans 7 days either side (and follows the clock forward). */
  startDay: string;
  /** Natural price steps count from here (the clock's start; see DRIFT_STEP_MS). */
  priceEpochMs: number;
  private readonly forcedFinish = new Map<string, number>();
  readonly drifts: ForcedDrift[] = [];
  private readonly days = new Map<string, SportEvent[]>();
  private readonly cards = new Map<string, CardMarket[]>();
  private readonly placed = new Map<string, PlacedBet>();
  private outrightList: SportEvent[] | null = null;
  private betSeq = 0;
  private sorted: { key: string; events: SportEvent[] } | null = null;
  /** Sports prices read by price checks in the last moments: the fast path of the next check. */
  readonly recentPrices = new Map<string, { price: number; atMs: number }>();
  /** GET /v3/markets: 120 card reads per minute per API key, on the sandbox clock. */
  readonly cardLimit = new RollingLimit(120, 60_000);

  constructor(opts: { seed: number; clock: SandboxClock }) {
    this.seed = opts.seed;
    this.clock = opts.clock;
    this.startDay = dayOf(opts.clock.nowMs());
    this.priceEpochMs = opts.clock.startMs;
  }

  nowMs(): number {
    return this.clock.nowMs();
  }

  /** What tests and bets changed in the world, as plain data (snapshot); the rest follows from the seed. */
  dump(): WorldDump {
    return structuredClone({
      startDay: this.startDay,
      priceEpochMs: this.priceEpochMs,
      forcedFinish: [...this.forcedFinish],
      drifts: this.drifts,
      placed: [...this.placed],
      betSeq: this.betSeq,
      recentPrices: [...this.recentPrices],
      cardHits: this.cardLimit.dump(),
    });
  }

  /** Puts back a dump; the bet id sequence never goes back, so no bet id is issued twice in one run. */
  load(d: WorldDump): void {
    const copy = structuredClone(d);
    if (copy.startDay !== this.startDay) {
      this.startDay = copy.startDay;
      this.days.clear();
      this.cards.clear();
      this.outrightList = null;
      this.sorted = null;
    }
    this.priceEpochMs = copy.priceEpochMs ?? 0;
    this.forcedFinish.clear();
    for (const [k, v] of copy.forcedFinish) this.forcedFinish.set(k, v);
    this.drifts.splice(0, this.drifts.length, ...copy.drifts);
    this.placed.clear();
    for (const [k, v] of copy.placed) this.placed.set(k, v);
    this.betSeq = Math.max(this.betSeq, copy.betSeq);
    this.recentPrices.clear();
    for (const [k, v] of copy.recentPrices) this.recentPrices.set(k, v);
    this.cardLimit.load(copy.cardHits);
  }

  // ---- sports fixtures -------------------------------------------------------------------------

  /** First and last day that hold fixtures at sandbox time `nowMs`. */
  span(nowMs = this.nowMs()): { first: string; last: string } {
    const today = dayOf(nowMs);
    let base = this.startDay;
    if (today > base) base = today;
    return { first: addDays(this.startDay, -DAYS_BACK), last: addDays(base, DAYS_AHEAD) };
  }

  day(day: string): SportEvent[] {
    let events = this.days.get(day);
    if (!events) {
      events = sportsDay(this.seed, day);
      this.days.set(day, events);
    }
    return events;
  }

  outrights(): SportEvent[] {
    this.outrightList ??= outrights(this.seed, addDays(this.startDay, DAYS_AHEAD));
    return this.outrightList;
  }

  /** Every event (fixtures and outrights) in (start, epk) order. */
  allEvents(nowMs = this.nowMs()): SportEvent[] {
    const { first, last } = this.span(nowMs);
    const key = `${first}|${last}`;
    if (this.sorted?.key === key) return this.sorted.events;
    const out: SportEvent[] = [];
    for (let d = first; d <= last; d = addDays(d, 1)) out.push(...this.day(d));
    out.push(...this.outrights());
    out.sort((a, b) => a.startMs - b.startMs || (a.epk < b.epk ? -1 : a.epk > b.epk ? 1 : 0));
    this.sorted = { key, events: out };
    return out;
  }

  findEvent(epk: string): SportEvent | undefined {
    const day = epkDay(epk);
    if (!day) return undefined;
    const { first, last } = this.span();
    if (day < first || day > last) return undefined;
    return this.day(day).find((e) => e.epk === epk) ?? this.outrights().find((e) => e.epk === epk);
  }

  forcedFinishes(): ReadonlyMap<string, number> {
    return this.forcedFinish;
  }

  status(ev: SportEvent, nowMs = this.nowMs()) {
    return statusAt(ev, nowMs, this.forcedFinish.get(ev.epk));
  }

  /** Whether `bookie` is attached to the event now, and the bookmaker's own event id. */
  link(ev: SportEvent, bookie: string, nowMs = this.nowMs()): LinkState {
    const l = ev.links.find((x) => x.bookie === bookie);
    if (!l) return { linked: false, siteEventId: null, linksAtMs: null };
    if (l.linkedFromMs <= nowMs) return { linked: true, siteEventId: l.siteEventId };
    return { linked: false, siteEventId: l.siteEventId, linksAtMs: l.linkedFromMs };
  }

  /** The event a book knows by its own id (any day of the world), or undefined. */
  eventBySiteId(bookie: string, siteEventId: string): SportEvent | undefined {
    for (const ev of this.allEvents()) {
      if (ev.links.some((l) => l.bookie === bookie && l.siteEventId === siteEventId)) return ev;
    }
    return undefined;
  }

  // ---- cards and prices ------------------------------------------------------------------------

  /** The book's card as the gateway serves it: no proposition ids on a sport the book takes no bets on. */
  card(ev: SportEvent, bookie: Bookie): CardMarket[] {
    return this.#cached(`${bookie}|${ev.epk}`, () => {
      const priced = this.pricedCard(ev, bookie);
      return sportNotOffered(bookie, ev.sport) ? withoutIds(priced) : priced;
    });
  }

  /** Every row the book prices, bettable or not by its own ids, whatever it takes bets on (the unofferedCards fault). */
  pricedCard(ev: SportEvent, bookie: Bookie): CardMarket[] {
    return this.#cached(`priced|${bookie}|${ev.epk}`, () => buildCard(this.seed, ev, bookie));
  }

  #cached(key: string, build: () => CardMarket[]): CardMarket[] {
    let card = this.cards.get(key);
    if (!card) {
      card = build();
      if (this.cards.size > 5000) this.cards.clear();
      this.cards.set(key, card);
    }
    return card;
  }

  /** Live price of a card selection at sandbox time `tMs` (default now). */
  livePrice(bookie: string, epk: string, market: string, sel: CardSelection, tMs = this.nowMs()): number {
    return priceAt(
      this.seed,
      { bookie, event: epk, market, selection: sel.slug },
      sel.baseOdds,
      tMs,
      this.drifts,
      this.priceEpochMs,
    );
  }

  /** The price the card shows: as of the last scrape. */
  cardPrice(bookie: string, epk: string, market: string, sel: CardSelection, nowMs = this.nowMs()): number {
    return this.livePrice(bookie, epk, market, sel, scrapeTime(nowMs, this.priceEpochMs));
  }

  racePrice(bookie: string, race: Race, runner: number, market: 'win' | 'place', tMs = this.nowMs()): number {
    const r = race.runners.find((x) => x.number === runner);
    if (!r) throw new Error(`no runner ${runner} in ${race.key}`);
    const base = market === 'win' ? r.win : r.place;
    return priceAt(
      this.seed,
      { bookie, event: race.key, market, selection: String(runner), racing: true },
      base,
      tMs,
      this.drifts,
      this.priceEpochMs,
    );
  }

  /** Moves prices now (tests, control route): the live price at once, cards from the next scrape. */
  forceDrift(drift: Omit<ForcedDrift, 'atMs'>): ForcedDrift {
    if (!(drift.factor > 0)) throw new Error('factor must be a positive number, e.g. 0.8 to shorten prices by 20%');
    const entry = { ...drift, atMs: this.nowMs() };
    this.drifts.push(entry);
    return entry;
  }

  /** When the next scrape lands: cards (and live prices moved by the watch controls) change then. */
  nextScrapeMs(nowMs = this.nowMs()): number {
    return scrapeTime(nowMs, this.priceEpochMs) + DRIFT_STEP_MS;
  }

  /**
   * Moves prices at the next scrape (the watch controls): live prices and cards change together at that step, so
   * a price check and the card agree. `price` pins a selection's price; `factor` multiplies it.
   */
  scheduleMove(move: Omit<ForcedDrift, 'atMs'>): ForcedDrift {
    if (!(move.factor > 0)) throw new Error('factor must be a positive number');
    const entry = { ...move, atMs: this.nextScrapeMs() };
    this.drifts.push(entry);
    return entry;
  }

  // ---- racing ----------------------------------------------------------------------------------

  race(track: string, raceNum: number, raceType: unknown, date: string, country?: string): Race | undefined {
    const def = findTrack(track);
    const type = normaliseRaceType(raceType);
    if (!def || !type || def.race_type !== type) return undefined;
    if (country && country.toLowerCase() !== def.country) return undefined;
    if (!Number.isInteger(raceNum) || raceNum < 1 || raceNum > RACES_PER_MEETING) return undefined;
    const { first, last } = this.span();
    if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || date < first || date > last) return undefined;
    return buildRace(this.seed, def, raceNum, date);
  }

  raceByKey(key: string): Race | undefined {
    const [track, num, type, country, date] = key.split('/');
    if (!track || !num || !date) return undefined;
    return this.race(track, Number(num), type, date, country);
  }

  raceResulted(race: Race, nowMs = this.nowMs()): boolean {
    const forced = this.forcedFinish.get(race.key);
    return nowMs >= race.resultMs || (forced !== undefined && nowMs >= forced);
  }

  racingMeetings(date: string): RacingMeeting[] {
    const { first, last } = this.span();
    if (date < first || date > last) return [];
    return TRACKS.map((t) => meetingOf(t, date));
  }

  upcomingMeetings(nowMs = this.nowMs()): RacingMeeting[] {
    return TRACKS.map((t) => {
      const today = localDay(t, nowMs);
      const meeting = meetingOf(t, today);
      return (meeting.starts.at(-1) as number) > nowMs ? meeting : meetingOf(t, addDays(today, 1));
    });
  }

  /**
   * The first thoroughbred race at least PROMO_CARD_LEAD_MS from its start (racing keys in `exclude` skipped):
   * it carries a racing boost card.
   */
  promoRace(exclude: ReadonlySet<string> = new Set()): PromoRace | undefined {
    const now = this.nowMs();
    const today = dayOf(now);
    // Meetings are dated by the track's local day, which runs ahead of UTC: start a day back.
    for (let i = -1; i < PROMO_DAYS; i++) {
      const date = addDays(today, i);
      for (const m of this.racingMeetings(date).filter((x) => x.race_type === 'R')) {
        for (let n = 1; n <= m.races; n++) {
          const race = this.race(m.track, n, m.race_type, date, m.country);
          if (!race || race.startMs < now + PROMO_CARD_LEAD_MS || exclude.has(race.key)) continue;
          const runners = race.runners.map(({ number, name, win }) => ({ number, name, win }));
          return {
            epk: race.key,
            track: race.track,
            race_num: race.race_num,
            race_type: race.race_type,
            date,
            runners,
          };
        }
      }
    }
    return undefined;
  }

  /** Sports events by epk, races by their racing key; undefined for a key the world does not hold. */
  eventStatus(epk: string): 'prematch' | 'in_play' | 'finished' | undefined {
    const ev = this.findEvent(epk);
    if (ev) return this.status(ev);
    const race = this.raceByKey(epk);
    if (!race) return undefined;
    if (this.raceResulted(race)) return 'finished';
    return this.nowMs() >= race.startMs ? 'in_play' : 'prematch';
  }

  /**
   * Up to 12 events, soonest first, that start at least PROMO_CARD_LEAD_MS from now (epks in `exclude` skipped):
   * the bet-boost cards go on these. They are bookie_c's cards, so only sports bookie_c takes bets on (decision 1995).
   */
  sportsEventsForPromos(exclude: ReadonlySet<string> = new Set()): PromoSportsEvent[] {
    const now = this.nowMs();
    const today = dayOf(now);
    const out: PromoSportsEvent[] = [];
    for (let i = 0; i < PROMO_DAYS; i++) {
      const d = addDays(today, i);
      for (const ev of this.day(d)) {
        if (ev.isOutright || ev.startMs < now + PROMO_CARD_LEAD_MS || ev.def.perDay < 4 || exclude.has(ev.epk))
          continue;
        if (sportNotOffered('bookie_c', ev.sport)) continue;
        const h2h =
          ev.links.length > 0 ? this.card(ev, ev.links[0]!.bookie).find((m) => m.market === 'head_to_head') : undefined;
        const sel = h2h?.selections[0];
        if (!sel) continue;
        out.push({
          epk: ev.epk,
          sport: ev.sport,
          competition: ev.league,
          event: ev.name,
          date: d,
          selection: sel.label,
          base_odds: sel.baseOdds,
        });
        if (out.length >= 12) return out;
      }
    }
    return out;
  }

  // ---- lifecycle and settlement ----------------------------------------------------------------

  nextBetId(bookie: string): string {
    this.betSeq += 1;
    return `sbx-${bookie.replace('bookie_', '')}-${String(this.betSeq).padStart(6, '0')}`;
  }

  /** Remembers how a bet the routes placed is decided. */
  notePlaced(betId: string, how: PlacedBet): void {
    this.placed.set(betId, how);
  }

  placedBet(betId: string): PlacedBet | undefined {
    return this.placed.get(betId);
  }

  /** Lifecycle and settlement; called on every clock advance and every few real seconds. */
  tick(now: Date, ledger: Ledger): void {
    this.settleDue(ledger, now.getTime());
  }

  /** Finishes the event (or every started one) now and settles its bets (control route). */
  settle(ledger: Ledger, epk?: string): { settled: number } {
    const now = this.nowMs();
    if (epk) {
      const ev = this.findEvent(epk);
      const race = ev ? undefined : this.raceByKey(epk);
      if (!ev && !race)
        throw new Error(`unknown event '${epk}': send an event_id from GET /odds/v1/events or a racing key`);
      this.forcedFinish.set(epk, now);
    } else {
      for (const ev of this.allEvents(now))
        if (ev.startMs <= now && !this.forcedFinish.has(ev.epk)) this.forcedFinish.set(ev.epk, now);
      // Races that have jumped and every race with an open bet on it.
      for (const bet of ledger.openBets()) {
        const race = bet.race_key ? this.raceByKey(bet.race_key) : undefined;
        if (race && race.startMs <= now) this.forcedFinish.set(race.key, now);
      }
    }
    return { settled: this.settleDue(ledger, now) };
  }

  private settleDue(ledger: Ledger, nowMs: number): number {
    let settled = 0;
    for (const bet of ledger.openBets()) {
      const result = this.decide(bet.bet_id, bet.odds, bet.epk, bet.race_key, nowMs);
      if (!result) continue;
      const finish = this.finishOf(bet.bet_id, bet.race_key);
      if (ledger.settleBet(bet.bet_id, result, new Date(nowMs), finish === undefined ? {} : { finish })) settled++;
    }
    return settled;
  }

  /** Where a racing single's runner finished (1 = won), for the promos that pay on places; else undefined. */
  private finishOf(betId: string, raceKeyText: string | undefined): number | undefined {
    const how = this.placed.get(betId);
    const race = raceKeyText ? this.raceByKey(raceKeyText) : undefined;
    if (how?.kind !== 'racing' || how.legs.length !== 1 || !race) return undefined;
    const place = finishingOrder(this.seed, race).indexOf((how.legs[0] as { runner: number }).runner);
    return place < 0 ? undefined : place + 1;
  }

  /** won/lost/void once the bet's event is over, else null. */
  private decide(
    betId: string,
    odds: number,
    epk: string | undefined,
    raceKeyText: string | undefined,
    nowMs: number,
  ): BetOutcome | null {
    const how = this.placed.get(betId);
    if (epk) {
      const ev = this.findEvent(epk);
      if (!ev || this.status(ev, nowMs) !== 'finished') return null;
      if (how?.kind === 'sports') {
        return sportsOutcome(this.seed, betId, how.outcome, how.chance, finalScore(this.seed, ev), how.player);
      }
      if (how?.kind === 'sgm') {
        // Every leg must win; a void leg (and no lost one) voids the multi.
        const legs = how.legs.map((l, i) =>
          sportsOutcome(this.seed, `${betId}#${i}`, l.outcome, l.chance, finalScore(this.seed, ev), l.player),
        );
        return legs.includes('lost') ? 'lost' : legs.includes('void') ? 'void' : 'won';
      }
      return unit(this.seed, 'settle', betId) < 1 / odds ? 'won' : 'lost';
    }
    if (raceKeyText) {
      const race = this.raceByKey(raceKeyText);
      if (!race || !this.raceResulted(race, nowMs)) return null;
      if (how?.kind === 'racing') {
        const order = finishingOrder(this.seed, race);
        return how.legs.every((l) => legWins(order, l.runner, l.within)) ? 'won' : 'lost';
      }
      return unit(this.seed, 'settle', betId) < 1 / odds ? 'won' : 'lost';
    }
    return null;
  }
}

function meetingOf(t: TrackDef, date: string): RacingMeeting {
  const starts = Array.from({ length: RACES_PER_MEETING }, (_, i) => raceStartMs(t, i + 1, date));
  return { track: t.track, race_type: t.race_type, country: t.country, races: RACES_PER_MEETING, date, starts };
}

export { dayStartMs };
