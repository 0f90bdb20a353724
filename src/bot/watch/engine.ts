import { createHash } from 'node:crypto';
import type { MarketCard, MarketSelection } from '../../gateway/index.js';
import { CardLimitRefusal, type Catalog, comparableMarket, fairFromCards, selectionMatches } from '../catalog/index.js';
import type { Logger } from '../config/logger.js';
import type { MessageView } from '../model/limits.js';
import { selectionName } from '../model/markets.js';
import { formatOdds } from '../model/odds.js';
import type { DeskMetrics } from '../ops/metrics.js';
import type { Outbox } from '../outbox/index.js';
import type { BotStore } from '../store/index.js';
import {
  type BookCadence,
  type CardWatchState,
  cadenceOf,
  planReads,
  type ScheduleOptions,
  sawChange,
  sawQuiet,
} from './model/read-schedule.js';
import {
  type AlertFacts,
  type BookMove,
  bookMove,
  type EpisodeStep,
  inHorizon,
  isSteam,
  type LeagueValueRule,
  type MovesRule,
  movesStep,
  type PriceRule,
  priceStep,
  readMoves,
  type ValueRule,
  valueStep,
} from './model/watch-rules.js';
import { type AlertPayload, alertIdOf, type CardRead, type Watch, WatchRepo } from './watches-repo.js';

export interface WatchEngineOptions {
  store: BotStore;
  /** How an alert is worded (the wing's view, handed in by the composition: the engine decides, never renders). */
  alertView: (facts: AlertFacts) => MessageView;
  catalog: Catalog;
  outbox: Outbox;
  logger: Logger;
  now: () => number;
  /** How often the scheduler looks for due cards. */
  tickMs: number;
  schedule: ScheduleOptions;
  metrics?: Pick<DeskMetrics, 'watchReadsSaved' | 'watchAlerts' | 'watchAlertSeconds'>;
  /** The books that refused a sport group lately (account health, decision 1996); absent: none known. */
  booksNotTaking?: (sport: string) => Promise<ReadonlySet<string>>;
}

const cardKeyOf = (epk: string, bookie: string) => `${epk}\0${bookie}`;
const CADENCE_KEY = 'watch:cadence';
/** A league rule judged on an event: every market of the cards (a value watch's market names one). */
const EVERY_MARKET = '*';
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** What changes when a book re-scrapes a card: its markets' selections and prices. */
export function cardDigest(card: MarketCard): string {
  const shape = card.markets.map((m) => [m.market, m.selections.map((s) => [s.slug ?? s.label, s.line, s.odds])]);
  return createHash('sha256').update(JSON.stringify(shape)).digest('base64url').slice(0, 22);
}

function findSel(card: MarketCard | undefined, market: string, selection: string): MarketSelection | undefined {
  const row = comparableMarket(card, market) ?? card?.markets.find((m) => m.market === market);
  return row?.selections.find((s) => selectionMatches(s, selection));
}

/** What one tick did (tests, the bench). */
export interface TickReport {
  reads: number;
  refused: boolean;
  alerts: number;
}

/**
 * The watch scheduler and evaluator: owns every card read made for watches (one process at a time: it runs
 * under the 'watch' leader lease), spends the card limiter's background lane in priority order, learns each
 * book's re-scrape cadence, and turns what it reads into alert episodes posted once through the outbox.
 */
export class WatchEngine {
  readonly repo: WatchRepo;
  readonly #o: WatchEngineOptions;
  /** Cards read by this process, by card key: the evaluation reads these (a new leader reads each once). */
  readonly #cards = new Map<string, MarketCard>();
  #reads: Map<string, CardRead> | undefined;
  #cadence: Map<string, BookCadence> | undefined;
  readonly #savedAt = new Map<string, number>();
  /** The last price saved per selection and book, so the history keeps only changes. */
  readonly #lastPrice = new Map<string, number>();
  /**
   * This tick's "before" per selection and book: every watch covering one selection reads the price as it stood before
   * this tick's read, not the price the first watch just saved (a DM twin, a server watch and a rule on one selection
   * each say 2.22 → 2.61, never 2.61 → 2.61).
   */
  #tickBefore = new Map<string, number | null>();
  /** What the watches covered (events and markets) when #lastPrice was last pruned to it. */
  #coveredSignature = '';
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<unknown> | undefined;
  #stopped = false;

  constructor(o: WatchEngineOptions) {
    this.#o = o;
    this.repo = new WatchRepo(o.store, o.now);
  }

  start(): void {
    this.#stopped = false;
    if (this.#timer) return;
    this.#timer = setInterval(() => this.kick(), this.#o.tickMs);
    this.#timer.unref();
    this.kick();
  }

  kick(): void {
    if (this.#running || this.#stopped) return;
    this.#running = this.tick()
      .catch((err) => {
        if (!this.#stopped) this.#o.logger.warn('watch pass failed; will retry', { err });
      })
      .finally(() => {
        this.#running = undefined;
      });
  }

  /** Resolves once no pass is running (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.#running) await this.#running;
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#running;
    // A later leader term starts from the store again (another process may have saved prices, the sweep deleted some).
    this.#cards.clear();
    this.#lastPrice.clear();
    this.#coveredSignature = '';
    this.#reads = undefined;
    this.#cadence = undefined;
  }

  /** The learned cadence of a book in ms (null while unknown). */
  cadenceMs(bookie: string): number | null {
    return cadenceOf(this.#cadence?.get(bookie));
  }

  /** One pass: read the cards due now within the budget, then judge the watches riding on them. */
  async tick(): Promise<TickReport> {
    const now = this.#o.now();
    this.#tickBefore = new Map();
    const stored = (await this.repo.active()).filter((w) => w.startsAt === null || w.startsAt > now);
    const watches = [
      ...stored.filter((w) => w.rule.kind !== 'league'),
      ...(await this.#expandLeagueRules(stored, now)),
    ];
    this.#forgetUnwatchedPrices(watches);
    if (watches.length === 0) return { reads: 0, refused: false, alerts: 0 };
    this.#reads ??= new Map((await this.repo.cardReads()).map((r) => [cardKeyOf(r.epk, r.bookie), r]));
    const reads = this.#reads;
    this.#cadence ??= new Map(
      Object.entries((await this.#o.store.kv.get<Record<string, BookCadence>>(CADENCE_KEY)) ?? {}),
    );
    const states = this.#cardStates(watches, reads);
    const plan = planReads([...states.values()], this.#cadence, now, this.#o.schedule);
    for (const card of plan.saved) {
      const k = cardKeyOf(card.epk, card.bookie);
      const since = Math.max(this.#savedAt.get(k) ?? 0, card.readAt ?? 0);
      if (now - since < this.#o.schedule.fallbackMs) continue;
      this.#savedAt.set(k, now);
      this.#o.metrics?.watchReadsSaved.inc();
    }
    const touched = new Map<string, number | null>();
    let refused = false;
    let cadenceMoved = false;
    for (const { card } of plan.reads) {
      if (this.#stopped) break;
      const k = cardKeyOf(card.epk, card.bookie);
      let read: MarketCard;
      try {
        read = await this.#o.catalog.refreshCard(card.epk, card.bookie);
      } catch (err) {
        // The lane's share of the window is spent: the rest waits for the next pass, in the same order.
        if (err instanceof CardLimitRefusal) {
          refused = true;
          break;
        }
        this.#o.logger.debug('watch card read failed', { epk: card.epk, bookie: card.bookie, err });
        continue;
      }
      const at = this.#o.now();
      const prev = reads.get(k);
      const digest = cardDigest(read);
      const changed = prev !== undefined && prev.digest !== digest;
      if (prev !== undefined) {
        const cadence = this.#cadence.get(card.bookie);
        this.#cadence.set(card.bookie, changed ? sawChange(cadence, at, prev.readAt) : sawQuiet(cadence, at));
        cadenceMoved = true;
      }
      const next: CardRead = {
        epk: card.epk,
        bookie: card.bookie,
        readAt: at,
        changedAt: changed ? at : (prev?.changedAt ?? null),
        digest,
      };
      reads.set(k, next);
      this.#cards.set(k, read);
      await this.repo.saveCardRead(next);
      touched.set(k, prev?.readAt ?? null);
    }
    if (cadenceMoved) await this.#o.store.kv.set(CADENCE_KEY, Object.fromEntries(this.#cadence));
    let alerts = 0;
    if (touched.size > 0) {
      const riding = watches.filter((w) => this.#booksOf(w).some((b) => touched.has(cardKeyOf(w.epk, b))));
      // A league rule rides on many events under one id: its episodes are read once.
      const episodes = await this.repo.episodes([...new Set(riding.map((w) => w.watchId))]);
      for (const w of riding) alerts += await this.#judge(w, touched, episodes);
    }
    return { reads: touched.size, refused, alerts };
  }

  /** Freshness for /watch list: the oldest read among a watch's cards (null: one not read yet). */
  async oldestRead(w: Watch): Promise<number | null> {
    const reads = this.#reads ?? new Map((await this.repo.cardReads()).map((r) => [cardKeyOf(r.epk, r.bookie), r]));
    // A league rule's cards are those of the events it covers now (none yet: not read yet).
    const each = w.rule.kind === 'league' ? await this.#expandLeagueRules([w], this.#o.now()) : [w];
    let oldest: number | null = Number.POSITIVE_INFINITY;
    for (const one of each) {
      for (const b of this.#booksOf(one)) {
        const r = reads.get(cardKeyOf(one.epk, b));
        if (!r) return null;
        oldest = Math.min(oldest, r.readAt);
      }
    }
    return Number.isFinite(oldest) ? oldest : null;
  }

  /**
   * The server's league rules as value watches on each prematch event of their leagues starting inside their
   * horizon: every market, every selection, any book. The events come from the catalog's listing (cached; no card).
   */
  async #expandLeagueRules(stored: readonly Watch[], now: number): Promise<Watch[]> {
    const out: Watch[] = [];
    for (const w of stored) {
      const rule = w.rule;
      if (rule.kind !== 'league') continue;
      for (const league of rule.leagues) {
        let events: Awaited<ReturnType<Catalog['loadEvents']>>;
        try {
          events = await this.#o.catalog.loadEvents({ league, since: dayOf(now), until: dayOf(now + rule.horizonMs) });
        } catch (err) {
          this.#o.logger.debug('league rule: events not read', { league, err });
          continue;
        }
        for (const ev of events) out.push(...this.#ruleOn(w, rule, ev, now));
      }
    }
    return out;
  }

  #ruleOn(
    w: Watch,
    rule: LeagueValueRule,
    ev: Awaited<ReturnType<Catalog['loadEvents']>>[number],
    now: number,
  ): Watch[] {
    const startsAt = Date.parse(ev.start_time);
    if (ev.is_outright || ev.status !== 'prematch' || !Number.isFinite(startsAt)) return [];
    if (!inHorizon(rule, startsAt, now) || (ev.books ?? []).length === 0) return [];
    return [
      {
        ...w,
        epk: ev.event_id,
        eventName: ev.name,
        startsAt,
        books: [...(ev.books ?? [])],
        market: EVERY_MARKET,
        selection: null,
        selectionLabel: null,
        bookie: null,
        rule: { kind: 'value', edgePct: rule.edgePct },
      },
    ];
  }

  #booksOf(w: Watch): string[] {
    return w.bookie ? [w.bookie] : w.books;
  }

  #cardStates(watches: readonly Watch[], reads: ReadonlyMap<string, CardRead>): Map<string, CardWatchState> {
    const states = new Map<string, CardWatchState>();
    for (const w of watches) {
      for (const bookie of this.#booksOf(w)) {
        const k = cardKeyOf(w.epk, bookie);
        const s = states.get(k);
        if (s) {
          s.watches += 1;
          continue;
        }
        const r = reads.get(k);
        states.set(k, {
          epk: w.epk,
          bookie,
          // A card this process holds no copy of is read once, whatever the store says of its last read.
          readAt: this.#cards.has(k) ? (r?.readAt ?? null) : null,
          changedAt: r?.changedAt ?? null,
          startsAt: w.startsAt,
          watches: 1,
          edge: 0,
        });
      }
    }
    return states;
  }

  /** The cards of an event this process holds, by book (the fair price reads these: no extra card, decision 1721). */
  #eventCards(w: Watch): Map<string, MarketCard | undefined> {
    return new Map(w.books.map((b) => [b, this.#cards.get(cardKeyOf(w.epk, b))]));
  }

  async #judge(
    w: Watch,
    touched: ReadonlyMap<string, number | null>,
    episodes: ReadonlyMap<string, { open: boolean; seq: number }>,
  ): Promise<number> {
    const rule = w.rule;
    if (rule.kind === 'moves') return this.#judgeMoves(w, rule, touched, episodes);
    let alerts = 0;
    const cards = this.#eventCards(w);
    for (const bookie of this.#booksOf(w)) {
      const k = cardKeyOf(w.epk, bookie);
      if (!touched.has(k)) continue;
      const card = this.#cards.get(k);
      const everyMarket = w.market === EVERY_MARKET;
      const rows = everyMarket
        ? (card?.markets ?? [])
        : [comparableMarket(card, w.market) ?? card?.markets.find((m) => m.market === w.market)];
      const pairs = rows.flatMap((row) =>
        w.selection === null
          ? (row?.selections ?? []).map((sel) => ({ row, sel }))
          : [{ row, sel: findSel(card, w.market, w.selection) }],
      );
      for (const { row, sel } of pairs) {
        if (!sel || typeof sel.odds !== 'number') continue;
        const market = everyMarket ? (row?.market ?? w.market) : w.market;
        const slug = sel.slug ?? sel.label;
        const before = await this.#notePrice(w, bookie, slug, sel.odds, market);
        const fair = fairFromCards({ cards, market, selection: slug });
        const edge = fair.kind === 'fair' ? fair.probability * sel.odds - 1 : null;
        // A league rule's episodes are per event, market and selection (one rule covers many).
        const key =
          rule.kind === 'price'
            ? bookie
            : everyMarket
              ? `${w.epk}|${bookie}|${market}|${slug}|${sel.line ?? ''}`
              : `${bookie}|${slug}`;
        const episode = episodes.get(`${w.watchId}\0${key}`);
        const stepNow: EpisodeStep =
          rule.kind === 'price'
            ? priceStep(rule as PriceRule, episode?.open ?? false, sel.odds)
            : edge === null
              ? null
              : valueStep(rule as ValueRule, episode?.open ?? false, edge);
        if (stepNow === 'close') await this.repo.closeEpisode(w.watchId, key);
        if (stepNow !== 'open') continue;
        const headline =
          rule.kind === 'price'
            ? `${selectionName(sel.label, sel.line)} reached ${formatOdds(sel.odds)} at ${bookie}`
            : `${selectionName(sel.label, sel.line)} at ${bookie}, edge ${((edge ?? 0) * 100).toFixed(1)} %`;
        await this.#alert(w, key, (episode?.seq ?? 0) + 1, touched.get(k) ?? null, {
          facts: {
            kind: rule.kind,
            headline,
            eventName: w.eventName,
            marketLabel: row?.label || market,
            selectionLabel: selectionName(sel.label, sel.line),
            bookie,
            before,
            now: sel.odds,
            fairOdds: fair.kind === 'fair' ? fair.odds : null,
            edge,
            startsAt: w.startsAt,
            userId: w.scope === 'personal' ? w.userId : null,
            bettable: Boolean(sel.bettable && sel.market_ref && card?.market_ref_betting_enabled),
            ...(await this.#dmOf(w)),
          },
          payload: {
            watchId: w.watchId,
            epk: w.epk,
            bookie,
            market,
            selection: slug,
            selectionLabel: selectionName(sel.label, sel.line),
            marketRef: sel.market_ref ?? null,
            price: sel.odds,
            fairProbability: fair.kind === 'fair' ? fair.probability : null,
            userId: w.scope === 'personal' ? w.userId : null,
          },
        });
        alerts += 1;
      }
    }
    return alerts;
  }

  async #judgeMoves(
    w: Watch,
    rule: MovesRule,
    touched: ReadonlyMap<string, number | null>,
    episodes: ReadonlyMap<string, { open: boolean; seq: number }>,
  ): Promise<number> {
    if (w.selection === null) return 0;
    const now = this.#o.now();
    const moves: BookMove[] = [];
    let latest: { bookie: string; sel: MarketSelection; card: MarketCard } | undefined;
    let prevRead: number | null = null;
    for (const bookie of w.books) {
      const k = cardKeyOf(w.epk, bookie);
      const card = this.#cards.get(k);
      const sel = findSel(card, w.market, w.selection);
      if (!card || !sel || typeof sel.odds !== 'number') continue;
      if (touched.has(k)) {
        await this.#notePrice(w, bookie, w.selection, sel.odds);
        const before = touched.get(k);
        if (typeof before === 'number') prevRead = Math.max(prevRead ?? 0, before);
      }
      const history = await this.repo.prices(
        { epk: w.epk, bookie, market: w.market, selection: w.selection },
        now - rule.windowMs,
      );
      const move = bookMove(bookie, history, now, rule.windowMs);
      if (move) moves.push(move);
      // The Bet button goes to the best price now among the books.
      if (!latest || sel.odds > (latest.sel.odds ?? 0)) latest = { bookie, sel, card };
    }
    const reading = readMoves(moves, rule.movePct);
    const episode = episodes.get(`${w.watchId}\0moves`);
    const stepNow = movesStep(rule, episode?.open ?? false, reading);
    if (stepNow === 'close') await this.repo.closeEpisode(w.watchId, 'moves');
    if (stepNow !== 'open' || !reading || !latest) return 0;
    const steam = rule.steamBooks !== null && isSteam(reading, rule.steamBooks);
    const way = reading.change < 0 ? 'shortened' : 'lengthened';
    const movedBooks = reading.change < 0 ? reading.shortened : reading.lengthened;
    const mins = Math.round(rule.windowMs / 60_000);
    const pct = Math.abs(reading.change * 100).toFixed(1);
    const fair = fairFromCards({ cards: this.#eventCards(w), market: w.market, selection: w.selection });
    const sel = latest.sel;
    const odds = sel.odds as number;
    const bookMoveOf = moves.find((m) => m.bookie === latest.bookie);
    await this.#alert(w, 'moves', (episode?.seq ?? 0) + 1, prevRead, {
      facts: {
        kind: 'moves',
        headline: steam
          ? `steam, ${movedBooks} books ${way} ${pct} % in ${mins} min`
          : `consensus ${way} ${pct} % in ${mins} min`,
        eventName: w.eventName,
        marketLabel: comparableMarket(latest.card, w.market)?.label || w.market,
        selectionLabel: selectionName(sel.label, sel.line),
        bookie: latest.bookie,
        before: bookMoveOf?.before ?? null,
        now: odds,
        fairOdds: fair.kind === 'fair' ? fair.odds : null,
        edge: fair.kind === 'fair' ? fair.probability * odds - 1 : null,
        startsAt: w.startsAt,
        books: moves.map((m) => `${m.bookie} ${formatOdds(m.before)} → ${formatOdds(m.now)}`),
        userId: w.scope === 'personal' ? w.userId : null,
        bettable: Boolean(sel.bettable && sel.market_ref && latest.card.market_ref_betting_enabled),
        ...(await this.#dmOf(w)),
      },
      payload: {
        watchId: w.watchId,
        epk: w.epk,
        bookie: latest.bookie,
        market: w.market,
        selection: w.selection,
        selectionLabel: selectionName(sel.label, sel.line),
        marketRef: sel.market_ref ?? null,
        price: odds,
        fairProbability: fair.kind === 'fair' ? fair.probability : null,
        userId: w.scope === 'personal' ? w.userId : null,
      },
    });
    return 1;
  }

  /**
   * Forgets the last prices of selections no watch covers now: the store's sweep deletes their rows (an hour after a
   * watch is removed; after an event starts), so a watch made on them later must read the store again and save anew.
   */
  #forgetUnwatchedPrices(watches: readonly Watch[]): void {
    const covered = new Set(watches.map((w) => `${w.epk}\0${w.market}`));
    // Prices are noted only for what a watch covers, so the memory needs looking at only when that changed.
    const signature = [...covered].sort().join('\n');
    if (signature === this.#coveredSignature) return;
    this.#coveredSignature = signature;
    for (const k of this.#lastPrice.keys()) {
      const [epk, , market] = k.split('\0');
      if (!covered.has(`${epk}\0${market}`) && !covered.has(`${epk}\0${EVERY_MARKET}`)) this.#lastPrice.delete(k);
    }
  }

  /** A DM alert's way back to the server the watch was made in: its alerts channel, else the server (decision 1942). */
  async #dmOf(w: Watch): Promise<Pick<AlertFacts, 'dm'>> {
    if (w.delivery !== 'dm') return {};
    return { dm: { guildId: w.guildId, alertsChannelId: (await this.repo.alertsChannel(w.guildId)) ?? null } };
  }

  /** Saves a watched selection's price when it changed; the price seen before (null: none). */
  async #notePrice(
    w: Watch,
    bookie: string,
    selection: string,
    odds: number,
    market = w.market,
  ): Promise<number | null> {
    const k = `${w.epk}\0${bookie}\0${market}\0${selection}`;
    const seen = this.#tickBefore.get(k);
    if (seen !== undefined) return seen;
    let before = this.#lastPrice.get(k);
    if (before === undefined) {
      const history = await this.repo.prices({ epk: w.epk, bookie, market, selection }, this.#o.now());
      before = history.at(-1)?.price;
    }
    if (before !== odds) {
      await this.repo.savePrice({ epk: w.epk, bookie, market, selection }, { at: this.#o.now(), price: odds });
      this.#lastPrice.set(k, odds);
    }
    this.#tickBefore.set(k, before ?? null);
    return before ?? null;
  }

  /** Whether the alert's book refused the event's sport lately: its Bet button then goes to the best book. */
  async #refusesSport(epk: string, bookie: string): Promise<boolean> {
    if (!this.#o.booksNotTaking) return false;
    const sport = (await this.#o.catalog.event(epk))?.sport ?? epk.split('/')[0] ?? '';
    return (await this.#o.booksNotTaking(sport)).has(bookie);
  }

  /**
   * Records episode `seq`'s alert, then opens the episode. The alert's id and outbox key come from the episode, so a
   * crash between the steps repeats them with the same id: the alert is posted once, and the episode opened.
   */
  async #alert(
    w: Watch,
    key: string,
    seq: number,
    changedAfter: number | null,
    a: { facts: Omit<AlertFacts, 'alertId'>; payload: AlertPayload },
  ): Promise<void> {
    const alertId = alertIdOf(w.watchId, key, seq);
    await this.repo.recordAlert({ alertId, guildId: w.guildId, channelId: w.channelId, payload: a.payload });
    const bookRefusesSport = await this.#refusesSport(w.epk, a.payload.bookie);
    const view = this.#o.alertView({ ...a.facts, alertId, ...(bookRefusesSport ? { bookRefusesSport } : {}) });
    await this.#o.outbox.create(`watch:${alertId}`, w.channelId, view, {
      topic: w.eventName,
    });
    await this.repo.openEpisode(w.watchId, key, seq);
    this.#o.metrics?.watchAlerts.inc({ kind: w.rule.kind });
    if (changedAfter !== null) this.#o.metrics?.watchAlertSeconds.observe((this.#o.now() - changedAfter) / 1000);
  }
}
