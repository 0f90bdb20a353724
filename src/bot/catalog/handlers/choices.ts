import type { ApplicationCommandOptionChoiceData } from 'discord.js';
import type { Event, MarketCard, MarketRow, MarketSelection, Session } from '../../../gateway/index.js';
import type { Logger } from '../../config/logger.js';
import { dayIn, whenIn } from '../../model/dates.js';
import { leagueKeyOf, leagueName, PRESET_LEAGUES } from '../../model/leagues.js';
import { LIMITS } from '../../model/limits.js';
import { bettable, selectionName, sortMarkets } from '../../model/markets.js';
import { matchText } from '../../model/match-text.js';
import { formatOdds } from '../../model/odds.js';
import { UserFacingError } from '../../model/user-facing-error.js';
import { getSettings } from '../../settings/index.js';
import { type BotStore, StoreClosedError } from '../../store/index.js';
import type { Catalog } from '../catalog.js';
import { comparableMarket, selectionKey, selectionMatches } from '../model/compare.js';
import { bookChecks } from '../model/eligibility.js';
import { getRef, putRef } from '../refs.js';

type Choice = ApplicationCommandOptionChoiceData<string>;

/** What suggestions read: the catalog's caches and reads, the clock, and the log for a warm-up that failed. */
export interface CatalogReads {
  catalog: Catalog;
  now: () => number;
  logger: Logger;
}

/** Where a value too long for a choice is kept behind a short ref. */
export interface RefStore {
  store: BotStore;
}

/** Suggestions that read the catalog and may hand back a ref. */
type ChoiceCtx = CatalogReads & RefStore;

/** The window autocomplete serves events from: yesterday to a week ahead (UTC days). */
export function upcomingWindow(now: number) {
  return { since: dayIn(now - 86_400_000, 'UTC'), until: dayIn(now + 7 * 86_400_000, 'UTC') };
}

/** Fills the caches autocomplete reads (events of the window); called at start and on cache misses. */
export async function warmCaches(ctx: CatalogReads): Promise<void> {
  await ctx.catalog.loadEvents(upcomingWindow(ctx.now()));
  await ctx.catalog.loadSessions();
}

const warming = new WeakMap<CatalogReads, Promise<void>>();
function warmInBackground(ctx: CatalogReads): Promise<void> {
  const running = warming.get(ctx);
  if (running) return running;
  const p = warmCaches(ctx)
    .catch((err) => {
      // A warm-up cut short by stop is not a failure worth a warning.
      if (!(err instanceof StoreClosedError)) ctx.logger.warn('cache warm-up failed', { err });
    })
    .finally(() => warming.delete(ctx));
  warming.set(ctx, p);
  return p;
}

/**
 * How long a suggestion waits for the events to load on a cache miss (after start, or when the clock moved the
 * window on): within Discord's 3 s, so the member's typing gets choices instead of an empty list that only the
 * next keystroke would fill.
 */
const WARM_WAIT_MS = 1_500;

async function upcoming(ctx: CatalogReads): Promise<Event[]> {
  const window = upcomingWindow(ctx.now());
  const hit = await ctx.catalog.peekEvents(window);
  if (hit) return hit;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    warmInBackground(ctx),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, WARM_WAIT_MS);
    }),
  ]);
  clearTimeout(timer);
  return (await ctx.catalog.peekEvents(window)) ?? [];
}

/**
 * The key's sessions for a suggestion: the cached list, or, once it has expired (it lives 30 s), a fresh read
 * waited for as long as the events' (WARM_WAIT_MS). A bare peek answered "No matching options." for every ask
 * after the first 30 s of a run, since nothing else refills that cache while nobody bets.
 */
export async function sessionsForChoices(ctx: CatalogReads): Promise<Session[]> {
  const hit = await ctx.catalog.peekSessions();
  if (hit) return hit;
  let timer: NodeJS.Timeout | undefined;
  const read = ctx.catalog.loadSessions().catch((err) => {
    if (!(err instanceof StoreClosedError)) ctx.logger.warn('sessions read for suggestions failed', { err });
    return undefined;
  });
  const sessions = await Promise.race([
    read,
    new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), WARM_WAIT_MS);
    }),
  ]);
  clearTimeout(timer);
  return sessions ?? [];
}

/**
 * Leagues with events in the window; before the first read of events (just after start) the spec's preset
 * leagues, so the first ask is never answered with nothing.
 */
export async function leagueChoices(ctx: CatalogReads, typed: string): Promise<Choice[]> {
  const events = await ctx.catalog.peekEvents(upcomingWindow(ctx.now()));
  if (!events) warmInBackground(ctx);
  const leagues = events?.length ? [...new Set(events.map((e) => e.league))].sort() : PRESET_LEAGUES.map((l) => l.key);
  return matchText(leagues, typed, (l) => `${l} ${leagueName(l)}`).map((l) => ({ name: leagueName(l), value: l }));
}

/**
 * A comma-separated list of leagues as one types it (`/watch server-rule leagues:`): the leagues the list takes whose
 * key or name holds the text after the last comma, each offered as the whole list with it added ("nrl, afl", shown
 * "NRL, AFL"); the ones already named are not offered again.
 */
export function leagueListChoices(typed: string): Choice[] {
  const parts = typed.split(',');
  const last = parts.pop() ?? '';
  const named = [
    ...new Set(
      parts
        .map((p) => p.trim())
        .filter((p) => p !== '')
        .map(leagueKeyOf),
    ),
  ];
  const left = PRESET_LEAGUES.filter((l) => !named.includes(l.key));
  return matchText(left, last, (l) => `${l.key} ${l.name}`)
    .map((l) => ({ name: [...named, l.key].map(leagueName).join(', '), value: [...named, l.key].join(', ') }))
    .filter((c) => c.value.length <= LIMITS.choiceValue && c.name.length <= LIMITS.choiceName)
    .slice(0, LIMITS.autocompleteChoices);
}

export async function knownLeagues(ctx: CatalogReads): Promise<string[]> {
  const events = await ctx.catalog.loadEvents(upcomingWindow(ctx.now()));
  return [...new Set(events.map((e) => e.league))].sort();
}

/** An event key as an option value: itself when it fits in 100 characters, else a stored reference. */
async function eventValue(ctx: RefStore, epk: string): Promise<string> {
  return epk.length <= LIMITS.choiceValue ? epk : `ref:${await putRef(ctx.store, epk)}`;
}

/** A market_ref as an option value: itself when short enough, else a stored reference. */
async function selectionValue(ctx: RefStore, marketRef: string): Promise<string> {
  return marketRef.length <= LIMITS.choiceValue ? marketRef : `ref:${await putRef(ctx.store, marketRef)}`;
}

/** Option values may be a stored reference (`ref:<hash>`) to a long event key or market_ref. */
export async function resolveRefOption(ctx: RefStore, value: string, what: string): Promise<string> {
  if (!value.startsWith('ref:')) return value;
  const full = await getRef<string>(ctx.store, value.slice(4));
  if (!full) throw new UserFacingError(`That ${what} choice has expired. Pick it again from the list.`);
  return full;
}

export async function resolveEventOption(ctx: RefStore, value: string): Promise<string> {
  if (!value.startsWith('ref:')) return value;
  const epk = await getRef<string>(ctx.store, value.slice(4));
  if (!epk) throw new UserFacingError('That event choice has expired. Pick the event again from the list.');
  return epk;
}

/**
 * Events to pick as one types, each with its start in the server's time zone said from today ("tomorrow 00:30
 * UTC"), the zone /events lists days in: `where` is the interaction asking (its server's settings name the zone).
 */
export async function eventChoices(
  ctx: ChoiceCtx,
  typed: string,
  where: { guildId: string | null },
): Promise<Choice[]> {
  const now = ctx.now();
  const zone = (await getSettings(ctx.store, where.guildId)).timezone;
  // An event no book lists yet has no card to open or bet on.
  const events = (await upcoming(ctx)).filter((e) => e.status !== 'finished' && (e.books?.length ?? 0) > 0);
  // Events still to start come first: a bet is usually on a coming game, and in-play cards may be thin.
  const startsLater = (e: Event) => Date.parse(e.start_time) >= now;
  const ordered = [...events.filter(startsLater), ...events.filter((e) => !startsLater(e))];
  const matched = matchText(ordered, typed, (e) => `${e.name} ${e.league} ${leagueName(e.league)}`).slice(
    0,
    LIMITS.autocompleteChoices,
  );
  const out: Choice[] = [];
  for (const e of matched) {
    const when = whenIn(Date.parse(e.start_time), now, zone);
    out.push({ name: `${e.name} · ${leagueName(e.league)} · ${when}`, value: await eventValue(ctx, e.event_id) });
  }
  return out;
}

/**
 * The event's books. With `forBetting` (the asking member's id): only books a bet can go to — with an active
 * session (when the sessions are known) and not known to refuse bets by market_ref; books not read yet have their
 * card fetched in the background (within the member's autocomplete allowance), so the next ask knows.
 */
export async function bookieChoices(
  ctx: ChoiceCtx,
  eventOption: string | null,
  typed: string,
  opts: { forBetting?: { member: string } } = {},
): Promise<Choice[]> {
  if (!eventOption) return [];
  const epk = await resolveEventOption(ctx, eventOption).catch(() => undefined);
  const event = epk ? await ctx.catalog.event(epk) : undefined;
  let books = event?.books ?? [];
  if (opts.forBetting && epk) books = await betCapableBooks(ctx, epk, books, opts.forBetting.member);
  return matchText(books, typed, (b) => b).map((b) => ({ name: b, value: b }));
}

async function betCapableBooks(ctx: CatalogReads, epk: string, books: string[], member: string): Promise<string[]> {
  const sessions = await ctx.catalog.peekSessions();
  if (!sessions) warmInBackground(ctx);
  const out: string[] = [];
  for (const book of books) {
    if (sessions && !sessions.some((s) => s.bookie === book && s.active)) continue;
    const byId = await ctx.catalog.takesBetsById(book);
    if (byId === false) continue;
    if (byId === undefined) ctx.catalog.prefetchCard(epk, book, member);
    out.push(book);
  }
  return out;
}

/** A card for autocomplete, or why there is none: nothing chosen yet, being read, or no read allowed now. */
type CardForChoices = { card: MarketCard | undefined; refused: boolean };

async function cardFor(
  ctx: ChoiceCtx,
  eventOption: string | null,
  bookie: string | null,
  member: string,
): Promise<CardForChoices> {
  if (!eventOption || !bookie) return { card: undefined, refused: false };
  const epk = await resolveEventOption(ctx, eventOption).catch(() => undefined);
  if (!epk) return { card: undefined, refused: false };
  const card = await ctx.catalog.peekCard(epk, bookie);
  if (card) return { card, refused: false };
  // Read in the background and wait for it a little (a card read is usually quick); one still being read is
  // served from the cache on a later keystroke.
  if (ctx.catalog.prefetchCard(epk, bookie, member) === 'refused') return { card: undefined, refused: true };
  return { card: await ctx.catalog.waitForCard(epk, bookie, WARM_WAIT_MS), refused: false };
}

/**
 * One choice that says why there are none and what to do, where Discord would show only "No matching options".
 * Its value is the member's own text (or "none"), which no market or selection matches: picking it changes nothing.
 */
export function reasonChoices(typed: string, reason: string): Choice[] {
  const value = typed.trim().slice(0, LIMITS.choiceValue) || 'none';
  const name = typed.trim() ? `${typed.trim()} (${reason})` : reason;
  return [{ name: name.slice(0, LIMITS.choiceName), value }];
}

/**
 * What autocomplete answers when the card may not be read now (the member's or everyone's share of card reads is
 * used): the one choice says to type again or open the card with /markets.
 */
export function notLoadedChoices(typed: string): Choice[] {
  return reasonChoices(typed, 'card not loaded yet: type again in a minute, or open it with /markets');
}

/** Why a card read for autocomplete offers nothing, or undefined when it has markets to offer. */
function emptyCardReason(card: MarketCard): string | undefined {
  if (!card.bound) return `${card.bookie} has no markets for this event yet: type again in a minute`;
  if (!card.markets.some((m) => bettable(m).length > 0)) {
    return `${card.bookie} has nothing to bet on this event now: pick another book`;
  }
  return undefined;
}

export function marketValue(m: MarketRow, index: number): string {
  return m.market.length <= LIMITS.choiceValue && !m.market.startsWith('#') ? m.market : `#${index}`;
}

export function findMarket(markets: MarketRow[], value: string): MarketRow | undefined {
  const sorted = sortMarkets(markets);
  if (value.startsWith('#')) return sorted[Number(value.slice(1))];
  return sorted.find((m) => m.market === value) ?? sorted.find((m) => m.label.toLowerCase() === value.toLowerCase());
}

/**
 * The book's card to choose from, or the choices that say why there is none to choose from yet (not read, no
 * markets, nothing bettable).
 */
async function bettableCard(
  ctx: ChoiceCtx,
  eventOption: string | null,
  bookie: string | null,
  typed: string,
  member: string,
): Promise<{ card: MarketCard } | { instead: Choice[] }> {
  const { card, refused } = await cardFor(ctx, eventOption, bookie, member);
  if (!card) return { instead: refused ? notLoadedChoices(typed) : [] };
  const empty = emptyCardReason(card);
  return empty ? { instead: reasonChoices(typed, empty) } : { card };
}

export async function marketChoices(
  ctx: ChoiceCtx,
  eventOption: string | null,
  bookie: string | null,
  typed: string,
  member: string,
): Promise<Choice[]> {
  const found = await bettableCard(ctx, eventOption, bookie, typed, member);
  if ('instead' in found) return found.instead;
  const { card } = found;
  const markets = sortMarkets(card.markets)
    .map((m, i) => ({ m, i }))
    .filter((x) => bettable(x.m).length > 0);
  return matchText(markets, typed, (x) => `${x.m.label} ${x.m.market}`).map((x) => ({
    name: `${x.m.label} (${x.m.tier})`,
    value: marketValue(x.m, x.i),
  }));
}

export async function selectionChoices(
  ctx: ChoiceCtx,
  eventOption: string | null,
  bookie: string | null,
  market: string | null,
  typed: string,
  member: string,
): Promise<Choice[]> {
  const found = await bettableCard(ctx, eventOption, bookie, typed, member);
  if ('instead' in found) return found.instead;
  const { card } = found;
  if (!market) return [];
  const m = findMarket(card.markets, market);
  if (!m) return [];
  const out: Choice[] = [];
  for (const sel of matchText(bettable(m), typed, (x) => x.label).slice(0, LIMITS.autocompleteChoices)) {
    out.push({
      name: `${selectionName(sel.label, sel.line)} @ ${formatOdds(sel.odds)}`,
      value: await selectionValue(ctx, sel.market_ref),
    });
  }
  return out;
}

/** The cached cards of an event's books, and whether a card that is missing may not be read now. */
interface SharedCards {
  books: string[];
  cards: Map<string, MarketCard>;
  sessions: Session[] | undefined;
  refused: boolean;
}

/**
 * The event's books' cached cards, for commands that span books (/compare, /bet with no bookie): autocomplete
 * cannot wait for the gateway, so a book whose card is not cached has it read in the background for a later
 * keystroke.
 */
async function sharedCards(ctx: ChoiceCtx, eventOption: string | null, member: string): Promise<SharedCards> {
  const epk = eventOption ? await resolveEventOption(ctx, eventOption).catch(() => undefined) : undefined;
  const event = epk ? await ctx.catalog.event(epk) : undefined;
  const books = event?.books ?? [];
  const sessions = await ctx.catalog.peekSessions();
  if (!sessions) warmInBackground(ctx);
  const cards = new Map<string, MarketCard>();
  let refused = false;
  const loading: string[] = [];
  for (const bookie of books) {
    if (sessions && !sessions.some((s) => s.active && s.bookie === bookie)) continue;
    const card = await ctx.catalog.peekCard(event?.event_id ?? '', bookie);
    if (card) cards.set(bookie, card);
    else if (event && ctx.catalog.prefetchCard(event.event_id, bookie, member) === 'refused') refused = true;
    else loading.push(bookie);
  }
  // With no card at hand, wait a little for the reads just started, as for one book's card.
  if (event && cards.size === 0 && loading.length > 0) {
    const read = await Promise.all(loading.map((b) => ctx.catalog.waitForCard(event.event_id, b, WARM_WAIT_MS)));
    read.forEach((card, i) => {
      if (card) cards.set(loading[i] as string, card);
    });
  }
  return { books, cards, sessions, refused: refused && cards.size === 0 };
}

/**
 * The cached cards of the books that can take a bet on `market` (and `selection`), by the eligibility best-price
 * /bet uses; before the sessions are known, every cached card whose book takes bets by market_ref.
 */
function eligibleCards(shared: SharedCards, market: string, selection?: string): MarketCard[] {
  const { books, cards, sessions } = shared;
  if (!sessions) return [...cards.values()].filter((c) => c.market_ref_betting_enabled);
  const checks = bookChecks({ books, sessions, cards, chosen: {}, market, ...(selection ? { selection } : {}) });
  const ok = new Set(checks.filter((c) => !c.leftOut).map((c) => c.bookie));
  return [...cards].filter(([b]) => ok.has(b)).map(([, c]) => c);
}

/** Market choices across books: the value is the market key, which names the same market at every book. */
export async function sharedMarketChoices(
  ctx: ChoiceCtx,
  eventOption: string | null,
  typed: string,
  member: string,
): Promise<Choice[]> {
  const shared = await sharedCards(ctx, eventOption, member);
  if (shared.refused) return notLoadedChoices(typed);
  const cards = [...shared.cards.values()];
  if (cards.length > 0 && cards.every((c) => !c.bound)) {
    return reasonChoices(typed, 'no book has markets for this event yet: type again in a minute');
  }
  const markets = new Map<string, MarketRow>();
  for (const card of shared.cards.values()) {
    for (const m of card.markets) {
      if (m.tier === 'unmapped' || bettable(m).length === 0 || m.market.length > LIMITS.choiceValue) continue;
      if (!markets.has(m.market) && eligibleCards(shared, m.market).length > 0) markets.set(m.market, m);
    }
  }
  return matchText([...markets.values()], typed, (m) => `${m.label} ${m.market}`).map((m) => ({
    name: m.label,
    value: m.market,
  }));
}

/**
 * Selection choices across books: every selection any book that can take the bet lists, once each; the value is
 * the slug (or label), shared by every book, never a market_ref.
 */
export async function sharedSelectionChoices(
  ctx: ChoiceCtx,
  eventOption: string | null,
  market: string | null,
  typed: string,
  member: string,
): Promise<Choice[]> {
  const shared = await sharedCards(ctx, eventOption, member);
  if (shared.refused) return notLoadedChoices(typed);
  if (!market) return [];
  const sels = new Map<string, MarketSelection>();
  for (const card of eligibleCards(shared, market)) {
    const m = comparableMarket(card, market);
    for (const s of m ? bettable(m) : []) if (!sels.has(selectionKey(s))) sels.set(selectionKey(s), s);
  }
  return matchText([...sels.values()], typed, (s) => s.label)
    .map((s) => ({ name: selectionName(s.label, s.line), value: s.slug ?? s.label }))
    .filter((c) => c.value.length <= LIMITS.choiceValue)
    .slice(0, LIMITS.autocompleteChoices);
}

/**
 * The market_ref of a selection at one book. The option holds a market_ref when it was picked with the book
 * chosen, or a slug or label when it was picked across books (the book named after): then it is looked up in
 * that book's market. Anything else is passed on for the slip's own check to refuse.
 */
export async function selectionRefAt(
  ctx: CatalogReads,
  q: { epk: string; bookie: string; market: string; selection: string },
): Promise<string> {
  const card = await ctx.catalog.loadCard(q.epk, q.bookie).catch(() => undefined);
  if (!card || card.markets.some((m) => m.selections.some((s) => s.market_ref === q.selection))) return q.selection;
  const market = findMarket(card.markets, q.market);
  const sel = market ? bettable(market).find((s) => selectionMatches(s, q.selection)) : undefined;
  return sel?.market_ref ?? q.selection;
}

/**
 * The choices of a command whose options are event, bookie, market and selection, as /bet's: with a book chosen,
 * its own card (values are market_refs); without, the markets and selections every book shares (slugs).
 */
export async function slipOptionChoices(
  ctx: ChoiceCtx,
  focused: { name: string; value: string },
  o: { event: string | null; bookie: string | null; market: string | null; member: string; guildId: string | null },
  bookieOpts: { forBetting?: { member: string } } = {},
): Promise<Choice[]> {
  if (focused.name === 'event') return eventChoices(ctx, focused.value, o);
  if (focused.name === 'bookie') return bookieChoices(ctx, o.event, focused.value, bookieOpts);
  if (focused.name === 'market') {
    return o.bookie
      ? marketChoices(ctx, o.event, o.bookie, focused.value, o.member)
      : sharedMarketChoices(ctx, o.event, focused.value, o.member);
  }
  return o.bookie
    ? selectionChoices(ctx, o.event, o.bookie, o.market, focused.value, o.member)
    : sharedSelectionChoices(ctx, o.event, o.market, focused.value, o.member);
}

/** A session as people know it: its book and user name ("bookie_a/alpha_a"), never its id. */
export function sessionAccountName(s: Pick<Session, 'bookie' | 'username'>): string {
  return `${s.bookie}/${s.username || 'unnamed account'}`;
}

/**
 * The key's sessions as choices named by book and user name (never an id): active ones first; two sessions of one
 * account told apart by their number and state. The value is the session id the command takes. Read through
 * sessionsForChoices, so the choices keep coming after the session cache lapses.
 */
export async function accountSessionChoices(
  ctx: CatalogReads,
  typed: string,
  bookie?: string | null,
): Promise<Choice[]> {
  const sessions = (await sessionsForChoices(ctx))
    .filter((s) => !bookie || s.bookie === bookie)
    .sort((a, b) => Number(b.active) - Number(a.active));
  const ofAccount = new Map<string, Session[]>();
  for (const s of sessions) {
    const name = sessionAccountName(s);
    ofAccount.set(name, [...(ofAccount.get(name) ?? []), s]);
  }
  const label = (s: Session) => {
    const twins = ofAccount.get(sessionAccountName(s)) ?? [s];
    const which = twins.length > 1 ? ` · session ${twins.indexOf(s) + 1} of ${twins.length}` : '';
    return `${sessionAccountName(s)}${which}${s.active ? '' : ' · inactive'}`;
  };
  return matchText(sessions, typed, (s) => `${label(s)} ${s.session_id}`)
    .slice(0, LIMITS.autocompleteChoices)
    .map((s) => ({ name: label(s).slice(0, LIMITS.choiceName), value: s.session_id }));
}

/** The account a session id belongs to, by book and user name, from the list choices read; undefined when unknown. */
export async function sessionAccountOf(ctx: CatalogReads): Promise<(sessionId: string) => string | undefined> {
  const sessions = await sessionsForChoices(ctx);
  return (id) => {
    const s = sessions.find((x) => x.session_id === id);
    return s ? sessionAccountName(s) : undefined;
  };
}
