import { randomBytes } from 'node:crypto';
import {
  type AccountPromo,
  BetType,
  type RacingSameRaceMulti,
  type RacingSingleBet,
  type SportsMarketRefBet,
} from '../../gateway/index.js';
import type { AccountHealth } from '../accounts/index.js';
import { accountOf, sessionFor } from '../accounts/index.js';
import type { Catalog } from '../catalog/index.js';
import type { BotTunables } from '../config/config.js';
import type { GatewayPort } from '../gateway-port.js';
import { DEFAULT_MARGIN_METHOD } from '../model/fair-price.js';
import { centsFromDollars, dollarsFromCents, formatMoney } from '../model/money.js';
import { multiFair } from '../model/multi-fair.js';
import { formatOdds } from '../model/odds.js';
import {
  BOOST_WORDS,
  MAX_STACK,
  type MultiLeg,
  type MultiSlipInfo,
  type RacingBet,
  type RacingMultiBet,
  REFUND_WORDS,
  STACKING_BOOKS,
} from '../model/racing-bet.js';
import {
  checkMinOdds,
  checkStake,
  type RacingLeg,
  type SlipEdge,
  type SlipPayload,
  type StackedMulti,
  slipKind,
} from '../model/slip-rules.js';
import { UserFacingError } from '../model/user-facing-error.js';
import { type GuildSettings, getSettings, stakeLimits } from '../settings/index.js';
import type { BotStore } from '../store/index.js';
import { type BankSource, bankAtAccount } from './bank.js';
import type { BetRecord } from './bet-records.js';
import { suggestedStakeCents } from './model/kelly.js';
import {
  bookRunner,
  legsText,
  multiBetRequest,
  multiStillPriced,
  NO_FLOOR as NO_FLOOR_ODDS,
  type RaceRead,
} from './multi-prices.js';
import { waitForPriceCheck } from './price-wait.js';
import { RACE_READ_USABLE_MS, raceReadsOf } from './race-reads.js';
import type { SlipRecord, SlipRepo } from './slips.js';
import { raceEventKey, stackMultisOf, stackPayload } from './stack.js';

const BONUS_READ_WAIT_MS = 20_000;

/** What building a slip needs: the gateway, settings and sessions, and the slip table. */
export interface SlipKindDeps {
  gateway: GatewayPort;
  store: BotStore;
  slips: SlipRepo;
  tunables: BotTunables;
  callbackUrl: string | undefined;
  now: () => number;
  catalog: Catalog;
  /** Account health: a slip at a book the member picked warns when its account has been limited or refused. */
  accounts?: AccountHealth;
  /** The bank stakes and share caps are sized by (absent: none, so only dollar caps apply). */
  bank?: BankSource;
  /** false: slips carry no fair-price line (bench figure 20 measures what the line costs a slip). */
  fairPrice?: boolean;
}

interface SlipOwner {
  guildId: string | null;
  channelId: string;
  userId: string;
  /** The guild's settings when the interaction's gate already read them (read once per interaction). */
  settings?: GuildSettings;
  /** The bank the gate read (cents; null: none): share caps are worked out from it and the slip keeps it. */
  bankCents?: number | null;
  /** Set by the stake check: the slip's account is outside the server's fund (decision 1910). */
  outsideFund?: boolean;
}

export interface RacingSlipRequest extends SlipOwner, RacingBet {}

export interface MultiSlipRequest extends SlipOwner, RacingMultiBet {}

export interface PromoSlipRequest extends SlipOwner {
  promoId: number;
  /** Whole cents, read from what the member typed. */
  stakeCents: number;
}

const loose = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, '');
const callback = (url: string | undefined) => (url ? { callback_url: url } : {});
export const raceLabel = (leg: Pick<RacingLeg, 'track' | 'raceNum'>) => `${leg.track} R${leg.raceNum}`;

/**
 * promo_name, and bet_type when the promo's name is one (the spec's `2/3` token is both), with skip_if_no_promo:
 * the slip promised the promo's cover, so a book that cannot attach it refuses rather than places the bet bare.
 */
function promoFields(name: string | undefined): Pick<RacingSingleBet, 'promo_name' | 'bet_type' | 'skip_if_no_promo'> {
  if (!name) return {};
  const type = BetType.options.find((t) => t === name);
  return { promo_name: name, skip_if_no_promo: true, ...(type ? { bet_type: type } : {}) };
}

/** The place_bet body of a sports or racing slip; `floor` is target_odds (live price less the tolerance). */
export function placeBetRequest(
  p: SlipPayload,
  stakeCents: number,
  floor: number,
  callbackUrl: string | undefined,
): SportsMarketRefBet | RacingSingleBet | RacingSameRaceMulti {
  const stake = dollarsFromCents(stakeCents);
  if (slipKind(p) === 'multi' && p.multi) return multiBetRequest(p, p.multi, stake, callbackUrl);
  if (slipKind(p) === 'racing' && p.racing) {
    const r = p.racing;
    return {
      session_id: p.sessionId,
      category: 'racing',
      track: r.track,
      race_num: r.raceNum,
      race_type: r.raceType,
      date: r.date,
      runner: r.runner,
      market: r.market,
      stake,
      target_odds: floor,
      ...(p.useBonusBet ? { use_bonus_bet: true } : {}),
      ...promoFields(r.promoName),
      ...(r.refund ? { bet_type: r.refund } : {}),
      ...(r.boost === 'strict' ? { use_boost: true } : r.boost === 'if_offered' ? { betboost: true } : {}),
      ...callback(callbackUrl),
    };
  }
  return {
    session_id: p.sessionId,
    category: 'sports',
    sport: p.sport,
    epk: p.epk,
    market_ref: p.marketRef,
    stake,
    target_odds: floor,
    ...callback(callbackUrl),
  };
}

/**
 * Sends a claimed record to the gateway: place_promo for a promo (its idempotency key is the placement id, stored
 * in the claim before this call, so a resend returns the same job), place_bet otherwise.
 */
export function submitRecord(
  gateway: GatewayPort,
  record: BetRecord,
  floor: number,
  callbackUrl: string | undefined,
): ReturnType<GatewayPort['bets']['place']> | ReturnType<GatewayPort['accountPromos']['place']> {
  const p = record.payload;
  if (slipKind(p) === 'promo' && p.promo) {
    return gateway.accountPromos.place({
      session_id: p.sessionId,
      promo_id: p.promo.promoId,
      stake: dollarsFromCents(record.stakeCents),
      idempotency_key: record.placementId,
      ...callback(callbackUrl),
    });
  }
  return gateway.bets.place(placeBetRequest(p, record.stakeCents, floor, callbackUrl));
}

/** A racing price-check result's price for a runner and market, with the runner's name as the book gives it. */
export function racingPriceOf(
  result: unknown,
  runner: string,
  market: 'win' | 'place',
): { runner: string; price: number } | undefined {
  const r = result as { status?: string; selections?: Array<{ runner?: unknown; prices?: unknown }> } | undefined;
  if (r?.status !== 'success') return undefined;
  const rows = r.selections ?? [];
  const row = rows.find((s) => typeof s.runner === 'string' && loose(s.runner) === loose(runner));
  if (!row || typeof row.runner !== 'string' || !Array.isArray(row.prices)) return undefined;
  const price = (row.prices as Array<{ market?: unknown; price?: unknown }>).find((x) => x.market === market)?.price;
  return typeof price === 'number' && price > 1 ? { runner: row.runner, price } : undefined;
}

/** Live win or place price of one runner at one session (a racing price check filtered to the runner). */
export async function racingLivePrice(
  gateway: GatewayPort,
  sessionId: string,
  leg: Omit<RacingLeg, 'market'> & { market: 'win' | 'place' },
  callbackUrl: string | undefined,
  waitMs: number,
): Promise<{ runner: string; price: number }> {
  const submission = await gateway.priceChecks.racing({
    session_ids: [sessionId],
    category: 'racing',
    track: leg.track,
    race_num: leg.raceNum,
    race_type: leg.raceType,
    date: leg.date,
    runner: leg.runner,
    ...callback(callbackUrl),
  });
  const job = submission.jobs[0];
  if (!job) throw new UserFacingError('The price check returned nothing. Try again in a moment.');
  const outcome = await waitForPriceCheck(job, undefined, waitMs);
  if (outcome.status !== 'completed') {
    throw new UserFacingError(`The price check did not finish (${outcome.status}). Try again in a moment.`);
  }
  const found = racingPriceOf(outcome.result, leg.runner, leg.market);
  if (!found) {
    const err = (outcome.result as { error?: unknown } | undefined)?.error;
    throw new UserFacingError(
      `The book gave no live ${leg.market} price for ${leg.runner} in ${raceLabel(leg)} on ${leg.date}` +
        `${typeof err === 'string' ? ` (${err.slice(0, 200)})` : ''}. Check the runner, race and race type with /price racing.`,
    );
  }
  return found;
}

/** The promo as the gateway lists it now, for the session that holds it. */
export async function findPromo(
  gateway: GatewayPort,
  promoId: number,
  sessionId?: string,
): Promise<AccountPromo | undefined> {
  const { promos } = await gateway.accountPromos.list(sessionId ? { session_id: sessionId } : {});
  return promos.find((x) => x.promo_id === promoId);
}

/** A promo card's live price is its boosted price, re-read from the account's promos. */
export async function promoLivePrice(gateway: GatewayPort, p: SlipPayload): Promise<number> {
  const promo = p.promo ? await findPromo(gateway, p.promo.promoId, p.sessionId) : undefined;
  const price = promo?.placeable_by_id ? promo.boosted_odds : undefined;
  if (typeof price !== 'number') {
    throw new UserFacingError(
      'That promo is no longer offered or no longer boosted. See /promos for the current ones.',
    );
  }
  return price;
}

/** The values (cents) of the session's AVAILABLE bonus tokens, one entry per token. */
async function availableTokenCents(
  gateway: GatewayPort,
  sessionId: string,
  callbackUrl: string | undefined,
): Promise<number[]> {
  const handle = await gateway.bonusBets.list({ session_id: sessionId, ...callback(callbackUrl) });
  const out = await handle.wait({ signal: AbortSignal.timeout(BONUS_READ_WAIT_MS) });
  if (out.status !== 'completed') {
    throw new UserFacingError(`Reading the bonus tokens did not finish (${out.status}). Try again in a moment.`);
  }
  const tokens = (out.result as { bonus_bets?: Array<{ amount?: unknown; status?: unknown }> | null })?.bonus_bets;
  return (tokens ?? []).flatMap((t) =>
    typeof t.amount === 'number' && String(t.status ?? '').toUpperCase() === 'AVAILABLE'
      ? [centsFromDollars(t.amount)]
      : [],
  );
}

/** Whether the session holds an available bonus token worth exactly the stake (what use_bonus_bet spends). */
export async function holdsBonusToken(
  gateway: GatewayPort,
  sessionId: string,
  stakeCents: number,
  callbackUrl: string | undefined,
): Promise<boolean> {
  return (await availableTokenCents(gateway, sessionId, callbackUrl)).includes(stakeCents);
}

/**
 * Every bonus multi of a slip has its own AVAILABLE token worth exactly its stake (decision 2051): the book gives
 * each bonus multi of a stack the largest free token not above its stake, so exact tokens are what it then takes,
 * and a stake above its token is refused at placement (decision 1971).
 */
async function checkBonusTokens(
  d: SlipKindDeps,
  at: { sessionId: string; bookie: string },
  multis: ReadonlyArray<{ stakeCents: number; useBonusBet?: boolean }>,
): Promise<void> {
  const wanted = multis.filter((m) => m.useBonusBet).map((m) => m.stakeCents);
  if (wanted.length === 0) return;
  const free = await availableTokenCents(d.gateway, at.sessionId, d.callbackUrl);
  const short = wanted.filter((cents) => {
    const i = free.indexOf(cents);
    if (i >= 0) free.splice(i, 1);
    return i < 0;
  });
  if (short.length === 0) return;
  const one = short.length === 1;
  throw new UserFacingError(
    `The ${at.bookie} session holds no free bonus token worth ${short.map(formatMoney).join(', ')} for ${one ? 'that multi' : 'those multis'} (each bonus multi stakes one token of exactly its stake). Stake the value of a token you hold, or leave "bonus token" empty to stake cash.`,
  );
}

/**
 * The stake checked against the per-bet limit (dollars and the share of the bank, the lower binding); the owner is
 * given the bank it was checked with, which the slip keeps for Confirm (decision 1723).
 */
async function checkedStake(
  d: SlipKindDeps,
  owner: SlipOwner,
  stakeCents: number,
  at: { bookie: string; sessionId: string },
): Promise<number> {
  const settings = owner.settings ?? (await getSettings(d.store, owner.guildId));
  // A bet through an account outside the fund is sized without the fund's NAV (decision 1910).
  const username = await accountOf(d.catalog, at.sessionId);
  const sized = await bankAtAccount(d.bank, owner.guildId, { bookie: at.bookie, username }, owner.bankCents);
  owner.bankCents = sized.bankCents;
  owner.outsideFund = sized.outsideFund;
  const check = checkStake(stakeCents, stakeLimits(settings, d.tunables, owner.bankCents));
  if (!check.ok) throw new UserFacingError(check.message);
  return stakeCents;
}

/** How long a slip may live given its stake in cents: a slip that becomes a proposal lives as long as it. */
export type SlipLifetime = (stakeCents: number) => number;

async function store(
  d: SlipKindDeps,
  owner: SlipOwner & { lifetime: SlipLifetime | undefined },
  payload: SlipPayload,
): Promise<SlipRecord<SlipPayload>> {
  const now = d.now();
  const stakeCents = payload.stakeCents;
  const account = await accountOf(d.catalog, payload.sessionId);
  const slip: SlipRecord<SlipPayload> = {
    slipId: randomBytes(9).toString('base64url'),
    guildId: owner.guildId,
    channelId: owner.channelId,
    messageId: null,
    userId: owner.userId,
    createdAt: now,
    expiresAt: now + (owner.lifetime?.(stakeCents) ?? d.tunables.slipExpiryMs),
    payload: {
      ...payload,
      ...(typeof owner.bankCents === 'number' ? { capBankCents: owner.bankCents } : {}),
      ...(owner.outsideFund ? { outsideFund: true } : {}),
      ...(account ? { account } : {}),
    },
  };
  await d.slips.create(slip);
  return slip;
}

/**
 * A refund bet type is offered only where the book's race promo for this race is that type (`/v3/promos`, read at
 * the slip's session): otherwise the member is told, and nothing is made.
 */
async function checkRefundOffered(d: SlipKindDeps, sessionId: string, req: RacingSlipRequest): Promise<void> {
  const type = req.refund;
  if (!type) return;
  if (req.promoName) throw new UserFacingError('A bet takes a refund type or a named promo, not both. Pick one.');
  const handle = await d.gateway.promos.list({ session_id: sessionId, ...callback(d.callbackUrl) });
  const out = await handle.wait({ signal: AbortSignal.timeout(BONUS_READ_WAIT_MS) });
  if (out.status !== 'completed') {
    throw new UserFacingError(
      `Reading ${req.bookie}'s race promos did not finish (${out.status}). Try again in a moment.`,
    );
  }
  const code = req.raceType.replace(/[()]/g, '');
  const offered = (out.result.promos ?? []).some(
    (p) =>
      loose(p.track) === loose(req.track) &&
      p.race_num === req.raceNum &&
      (p.race_type ?? 'R').replace(/[()]/g, '') === code &&
      (!p.event_url || p.event_url.includes(req.date)) &&
      p.promo_type === type,
  );
  if (!offered) {
    throw new UserFacingError(
      `${req.bookie} offers no "${REFUND_WORDS[type]}" on ${raceLabel(req)} on ${req.date}. Bet without the refund, or see /promos for the races that have one.`,
    );
  }
}

/** A strict boost is asked only where the book holds a boost token for the race (`/v2/boost_token`). */
async function checkBoostOffered(d: SlipKindDeps, sessionId: string, req: RacingSlipRequest): Promise<void> {
  const { boost_token_available: available } = await d.gateway.promos.boostToken({
    session_id: sessionId,
    track: req.track,
    race_num: req.raceNum,
    race_type: req.raceType,
  });
  if (!available) {
    throw new UserFacingError(
      `${req.bookie} has no boost for ${raceLabel(req)}, so a bet that must be boosted would be refused. Choose "${BOOST_WORDS.if_offered}", or bet without a boost.`,
    );
  }
}

/**
 * A racing slip: the same payload as a sports one, with the race and runner. eventName, marketKey and
 * selectionName are the texts the book writes into the bet's transaction ("Flemington R3", win, the runner),
 * so the reconciler's matching rule finds a racing bet as it finds a sports one.
 */
export async function prepareRacingSlip(
  d: SlipKindDeps,
  req: RacingSlipRequest,
  lifetime?: SlipLifetime,
): Promise<SlipRecord<SlipPayload>> {
  const sessionId = await sessionFor(d, req.guildId, req.bookie, req.settings);
  const stakeCents = await checkedStake(d, req, req.stakeCents, { bookie: req.bookie, sessionId });
  const leg = {
    track: req.track,
    raceNum: req.raceNum,
    raceType: req.raceType,
    date: req.date,
    runner: req.runner,
    market: req.market,
  };
  const live = await racingLivePrice(d.gateway, sessionId, leg, d.callbackUrl, d.tunables.priceCheckWaitMs);
  const minCheck = checkMinOdds(req.minOdds, live.price);
  if (!minCheck.ok) throw new UserFacingError(minCheck.message);
  if (req.useBonusBet && !(await holdsBonusToken(d.gateway, sessionId, stakeCents, d.callbackUrl))) {
    throw new UserFacingError(
      `The ${req.bookie} session holds no available bonus token worth ${formatMoney(stakeCents)}. Use the token's exact value as the stake, or bet without use_bonus_bet.`,
    );
  }
  if (req.refund) await checkRefundOffered(d, sessionId, req);
  if (req.boost === 'strict') await checkBoostOffered(d, sessionId, req);
  const racing: RacingLeg = {
    ...leg,
    runner: live.runner,
    ...(req.promoName ? { promoName: req.promoName } : {}),
    ...(req.refund ? { refund: req.refund } : {}),
    ...(req.boost ? { boost: req.boost } : {}),
  };
  const marketLabel = `${req.market === 'win' ? 'Win' : 'Place'}${req.promoName ? ` (promo ${req.promoName})` : ''}${req.refund ? ` (${REFUND_WORDS[req.refund]})` : ''}${req.boost ? ` (${BOOST_WORDS[req.boost]})` : ''}`;
  const owner = { ...req, lifetime };
  return store(d, owner, {
    kind: 'racing',
    racing,
    epk: `racing:${req.track}/${req.raceNum}/${req.raceType}/${req.date}`,
    sport: 'racing',
    eventName: raceLabel(racing),
    bookie: req.bookie,
    sessionId,
    marketKey: req.market,
    marketLabel: req.useBonusBet ? `${marketLabel} (bonus bet)` : marketLabel,
    selectionLabel: live.runner,
    selectionName: live.runner,
    marketRef: '',
    stakeCents,
    shownOdds: live.price,
    ...(req.minOdds === undefined ? {} : { minOdds: req.minOdds }),
    ...(req.useBonusBet ? { useBonusBet: true } : {}),
    userId: req.userId,
  });
}

/** The most legs a multi slip takes (the command's leg options). */
export const MAX_MULTI_LEGS = 6;

/** A multi's legs as the member named them: at least two, at most MAX_MULTI_LEGS, no runner twice. */
function checkLegs(req: RacingMultiBet): void {
  if (req.legs.length < 2)
    throw new UserFacingError('A multi needs at least 2 legs: name a second runner and position.');
  if (req.legs.length > MAX_MULTI_LEGS) throw new UserFacingError(`A multi takes at most ${MAX_MULTI_LEGS} legs.`);
  const seen = new Set<string>();
  for (const l of req.legs) {
    const key = loose(l.runner);
    if (seen.has(key)) throw new UserFacingError(`${l.runner} is in two legs: each runner goes in one leg only.`);
    seen.add(key);
  }
  if (req.minOdds !== undefined && !(Number.isFinite(req.minOdds) && req.minOdds >= 1.01)) {
    throw new UserFacingError('min_odds must be decimal odds of at least 1.01, e.g. 6.50.');
  }
}

/** A multi priced for a slip: its legs at the book with their fair chances, and the edge at the member's floor. */
interface PricedMulti {
  multi: MultiSlipInfo;
  edge?: SlipEdge;
}

/**
 * The race at the slip's book and one session per other book, from the reads the desk holds (decision 2050): a leg
 * whose runner a held read of the slip's book does not name reads the race there again before it is refused.
 */
async function readMultiRace(
  d: SlipKindDeps,
  req: RacingMultiBet,
  sessions: Array<{ session_id: string; bookie: string }>,
) {
  const race = { track: req.track, raceNum: req.raceNum, raceType: req.raceType, date: req.date };
  const memory = raceReadsOf(d.catalog);
  const ask = {
    gateway: d.gateway,
    now: d.now,
    callbackUrl: d.callbackUrl,
    waitMs: d.tunables.priceCheckWaitMs,
    maxAgeMs: RACE_READ_USABLE_MS,
  };
  const asked = d.now();
  let held = await memory.read(race, sessions, ask);
  const legsAt = (own: RaceRead | undefined) =>
    req.legs.map((l) => ({ leg: l, at: own ? bookRunner(own, l.runner) : undefined }));
  let legs = legsAt(held[0]?.read);
  if (legs.some((l) => !l.at) && (held[0]?.at ?? asked) < asked) {
    const [again] = await memory.read(race, sessions.slice(0, 1), { ...ask, maxAgeMs: 0 });
    if (again) held = [again, ...held.slice(1)];
    legs = legsAt(again?.read);
  }
  const oldest = Math.max(0, ...held.filter((h) => h.read.win.size > 0).map((h) => asked - h.at));
  return { reads: held.map((h) => h.read), own: held[0]?.read, legs, oldest };
}

/**
 * Prices one multi (decision 1975): the race read at every active book in one price check, every leg's runner
 * priced at the slip's book, the multi's fair chance (Harville over the books' no-vig win chances), the edge and
 * the suggested stake at the member's floor. The book prices a multi only when it takes it (the spec quotes none
 * before), so the slip's price is that floor: min_odds, or none.
 */
async function priceMulti(
  d: SlipKindDeps,
  req: RacingMultiBet,
  at: { settings: GuildSettings; sessionId: string; bankCents: number | null },
): Promise<PricedMulti> {
  const { settings, sessionId, bankCents } = at;
  const race = { track: req.track, raceNum: req.raceNum, raceType: req.raceType, date: req.date };
  // One session per other book for the fair price; the slip's own session for its book.
  const others = (await d.catalog.loadSessions()).filter((s) => s.active && s.bookie !== req.bookie);
  const perBook = [...new Map(others.map((s) => [s.bookie, s] as const)).values()];
  const { reads, own, legs, oldest } = await readMultiRace(d, req, [
    { session_id: sessionId, bookie: req.bookie },
    ...perBook,
  ]);
  const missing = legs.filter((l) => !l.at).map((l) => l.leg.runner);
  if (missing.length > 0) {
    throw new UserFacingError(
      `${req.bookie} gave no price for ${missing.join(', ')} in ${raceLabel(race)} on ${race.date}${own?.error ? ` (${own.error.slice(0, 200)})` : ''}. Pick runners from the list the leg options offer.`,
    );
  }
  const method = settings.marginMethod ?? DEFAULT_MARGIN_METHOD;
  const named = legs.map((l) => ({ runner: l.at?.runner ?? l.leg.runner, position: l.leg.position }));
  const fair = multiFair({ books: reads.filter((r) => r.win.size > 0), legs: named, method });
  if (fair.kind === 'impossible') {
    throw new UserFacingError(
      `These legs cannot all come true in one race (${legsText({ legs: named })}): only one runner can win, and only two can finish in the top 2. Change a position.`,
    );
  }
  const multi: MultiSlipInfo = {
    ...race,
    legs: named.map((l, i) => ({
      ...l,
      winPrice: legs[i]?.at?.price ?? 0,
      ...(fair.kind === 'fair' ? { probability: fair.legs[i]?.probability ?? 0 } : {}),
    })),
    ...(fair.kind === 'fair' ? { probability: fair.probability } : {}),
    method,
    books: fair.kind === 'fair' ? fair.books.length : 0,
    ...(oldest >= 1_000 ? { pricesAgeS: Math.floor(oldest / 1_000) } : {}),
  };
  if (fair.kind !== 'fair') return { multi };
  const floor = req.minOdds;
  const limits = stakeLimits(settings, d.tunables, bankCents);
  const suggested =
    floor !== undefined && bankCents !== null
      ? suggestedStakeCents({
          probability: fair.probability,
          odds: floor,
          bankCents,
          fraction: settings.kellyFraction,
          unitCents: settings.stakeUnitCents ?? 100,
          capsCents: [limits.perBetCents],
        })
      : undefined;
  const edge: SlipEdge = {
    method,
    fairOdds: fair.odds,
    fairProbability: fair.probability,
    books: fair.books.length,
    ...(floor === undefined ? {} : { edge: fair.probability * floor - 1 }),
    ...(settings.kellyFraction === undefined ? {} : { kellyFraction: settings.kellyFraction }),
    ...(suggested === undefined ? {} : { suggestedCents: suggested }),
  };
  return { multi, edge };
}

/** A same-race multi slip (decision 1975): the legs checked, the stake checked, the multi priced and stored. */
export async function prepareMultiSlip(
  d: SlipKindDeps,
  req: MultiSlipRequest,
  lifetime?: SlipLifetime,
): Promise<SlipRecord<SlipPayload>> {
  checkLegs(req);
  const settings = req.settings ?? (await getSettings(d.store, req.guildId));
  const sessionId = await sessionFor(d, req.guildId, req.bookie, settings);
  const owner = { ...req, settings, lifetime };
  const stakeCents = await checkedStake(d, owner, req.stakeCents, { bookie: req.bookie, sessionId });
  const priced = await priceMulti(d, req, { settings, sessionId, bankCents: owner.bankCents ?? null });
  await checkBonusTokens(d, { sessionId, bookie: req.bookie }, [{ stakeCents, useBonusBet: req.useBonusBet }]);
  const { multi, edge } = priced;
  const text = legsText(multi);
  return store(d, owner, {
    kind: 'multi',
    multi,
    epk: raceEventKey(multi),
    sport: 'racing',
    eventName: raceLabel(multi),
    bookie: req.bookie,
    sessionId,
    marketKey: 'srm',
    marketLabel: `Same-race multi (${multi.legs.length} legs)${req.useBonusBet ? ' (bonus bet)' : ''}`,
    selectionLabel: text,
    selectionName: text,
    marketRef: '',
    stakeCents,
    shownOdds: req.minOdds ?? NO_FLOOR_ODDS,
    ...(req.minOdds === undefined ? {} : { minOdds: req.minOdds }),
    ...(edge ? { edge } : {}),
    ...(req.useBonusBet ? { useBonusBet: true } : {}),
    userId: req.userId,
  });
}

/** A stack slip asked for: the multi or stack slip it grows from, and the multi to add on the same race. */
export interface StackSlipRequest extends SlipOwner {
  base: SlipPayload;
  add: { legs: MultiLeg[]; stakeCents: number; minOdds?: number; useBonusBet?: boolean };
}

/**
 * A stack slip (decision 2010): the multis of a multi or stack slip and one more on the same race, at the same book
 * and session, placed later in one stacked_srm call. The new multi is checked and priced as a multi slip's is; the
 * slip's stake is the sum of the multis' stakes, which the tiers, the day and the caps count.
 */
export async function prepareStackSlip(
  d: SlipKindDeps,
  req: StackSlipRequest,
  lifetime?: SlipLifetime,
): Promise<SlipRecord<SlipPayload>> {
  const { base } = req;
  const multis = stackMultisOf(base);
  const first = multis?.[0]?.multi;
  if (!multis || !first) throw new UserFacingError('Only a multi slip or a stack slip takes another multi.');
  if (!STACKING_BOOKS.includes(base.bookie)) {
    throw new UserFacingError(
      `${base.bookie} takes one multi per bet: several multis on one race in one call go through ${STACKING_BOOKS.join(' or ')}. Make the multi there with /multi bookie:${STACKING_BOOKS[0]}.`,
    );
  }
  if (multis.length >= MAX_STACK) throw new UserFacingError(`A stack holds at most ${MAX_STACK} multis.`);
  const race = { track: first.track, raceNum: first.raceNum, raceType: first.raceType, date: first.date };
  const bet: RacingMultiBet = { ...race, bookie: base.bookie, ...req.add };
  checkLegs(bet);
  const settings = req.settings ?? (await getSettings(d.store, req.guildId));
  const owner = { ...req, settings, lifetime };
  const stakeCents = await checkedStake(d, owner, req.add.stakeCents, {
    bookie: base.bookie,
    sessionId: base.sessionId,
  });
  const priced = await priceMulti(d, bet, { settings, sessionId: base.sessionId, bankCents: owner.bankCents ?? null });
  const added: StackedMulti = {
    multi: priced.multi,
    stakeCents,
    ...(req.add.minOdds === undefined ? {} : { minOdds: req.add.minOdds }),
    ...(priced.edge ? { edge: priced.edge } : {}),
    ...(req.add.useBonusBet ? { useBonusBet: true } : {}),
  };
  await checkBonusTokens(d, base, [...multis, added]);
  return store(d, owner, { ...stackPayload(base, [...multis, added]), userId: req.userId });
}

/** The active session that holds a promo: the one the gateway names, else any of the account's. */
export function promoSession(promo: AccountPromo): string | undefined {
  return promo.session_id ?? promo.session_ids?.[0] ?? undefined;
}

/** A promo slip: a bet-boost card placed by id; its price is the boosted price, its selection the card's. */
export async function preparePromoSlip(
  d: SlipKindDeps,
  req: PromoSlipRequest,
  lifetime?: SlipLifetime,
): Promise<SlipRecord<SlipPayload>> {
  const promo = await findPromo(d.gateway, req.promoId);
  if (!promo)
    throw new UserFacingError(`Promo ${req.promoId} is not active any more. See /promos for the current ones.`);
  if (!promo.placeable_by_id || typeof promo.boosted_odds !== 'number') {
    throw new UserFacingError(
      `Promo ${req.promoId} cannot be placed by id${promo.how_to_bet?.note ? ` (${promo.how_to_bet.note})` : ''}.`,
    );
  }
  const sessionId = promoSession(promo);
  if (!sessionId) {
    throw new UserFacingError(
      `No session of the ${promo.bookie} account holding promo ${req.promoId} is running. Start one (see /sessions).`,
    );
  }
  const stakeCents = await checkedStake(d, req, req.stakeCents, { bookie: promo.bookie, sessionId });
  const racing = promo.kind === 'racing';
  const eventName =
    promo.event ?? (racing && promo.track ? `${promo.track} R${promo.race_num ?? '?'}` : (promo.label ?? 'Promo'));
  const selection = promo.selection ?? promo.label ?? `promo ${promo.promo_id}`;
  const owner = { ...req, lifetime };
  return store(d, owner, {
    kind: 'promo',
    promo: { promoId: promo.promo_id, promoLabel: promo.label ?? `Promo ${promo.promo_id}` },
    epk: promoEventKey(promo),
    sport: promo.sport ?? (racing ? 'racing' : ''),
    eventName,
    bookie: promo.bookie,
    sessionId,
    marketKey: racing ? 'win' : 'head_to_head',
    marketLabel: `Bet boost (from ${typeof promo.base_odds === 'number' ? formatOdds(promo.base_odds) : '?'})`,
    selectionLabel: selection,
    selectionName: selection,
    marketRef: '',
    stakeCents,
    shownOdds: promo.boosted_odds,
    userId: req.userId,
  });
}

/**
 * What an approval binds beyond book, session, event key and stake: the market_ref of a sports selection; for a
 * race the runner, the market and the bet type (a promo_name, a bonus token); for a promo the card. A proposal
 * stores it when made and the approval refuses a slip that no longer says the same.
 */
export function boundSelection(p: SlipPayload): string {
  switch (slipKind(p)) {
    case 'racing': {
      const r = p.racing;
      if (!r) return '';
      const type = [
        r.promoName ? `promo ${r.promoName}` : '',
        r.refund ? `refund ${r.refund}` : '',
        r.boost ? `boost ${r.boost}` : '',
        p.useBonusBet ? 'bonus bet' : '',
      ].filter(Boolean);
      return `runner ${r.runner} · ${r.market}${type.length ? ` · ${type.join(' · ')}` : ''}`;
    }
    case 'promo':
      return p.promo ? `promo #${p.promo.promoId}` : '';
    case 'multi':
      return p.multi ? `multi ${legsText(p.multi)}${p.useBonusBet ? ' · bonus bet' : ''}` : '';
    case 'stack':
      return `stack ${(p.stack ?? []).map((m) => `${legsText(m.multi)} (${formatMoney(m.stakeCents)}${m.useBonusBet ? ' bonus' : ''})`).join('; ')}`;
    default:
      return p.marketRef;
  }
}

/** The live price at Confirm, for any kind of slip (sports goes through the caller's own price check). */
export async function kindLivePrice(
  gateway: GatewayPort,
  p: SlipPayload,
  callbackUrl: string | undefined,
  waitMs: number,
): Promise<number | undefined> {
  switch (slipKind(p)) {
    case 'racing':
      if (!p.racing) return undefined;
      return (await racingLivePrice(gateway, p.sessionId, p.racing, callbackUrl, waitMs)).price;
    case 'promo':
      return promoLivePrice(gateway, p);
    case 'multi':
      if (!p.multi) return undefined;
      return multiStillPriced(gateway, p.sessionId, p.multi, callbackUrl, waitMs).then(() => p.shownOdds);
    case 'stack': {
      // One read of the race: every leg of every multi must still be priced (a scratched runner refuses the stack).
      const first = p.stack?.[0]?.multi;
      if (!first) return undefined;
      const legs = (p.stack ?? []).flatMap((m) => m.multi.legs);
      await multiStillPriced(gateway, p.sessionId, { ...first, legs }, callbackUrl, waitMs);
      return p.shownOdds;
    }
    default:
      return undefined;
  }
}

/**
 * The event a promo's stake counts against for the per-event and per-market caps: its event key; for a racing
 * promo without one, the race's key as racing slips write it (so it shares the race's cap with them); otherwise
 * a scope of its own, so promos without an event never share one cap.
 */
export function promoEventKey(
  promo: Pick<AccountPromo, 'promo_id' | 'bookie' | 'epk' | 'kind' | 'track' | 'race_num' | 'race_type' | 'date'>,
): string {
  if (promo.epk) return promo.epk;
  const raceType = /^\([RGH]\)$/.test(promo.race_type ?? '') ? promo.race_type : undefined;
  if (promo.kind === 'racing' && promo.track && promo.race_num && raceType && promo.date) {
    return `racing:${promo.track}/${promo.race_num}/${raceType}/${promo.date}`;
  }
  return `promo:${promo.bookie}/${promo.promo_id}`;
}
