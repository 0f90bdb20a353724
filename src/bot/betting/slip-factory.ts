import { randomBytes } from 'node:crypto';
import type { MarketCard, MarketSelection, SportsPriceCheckResult } from '../../gateway/index.js';
import { accountOf, chosenSession, classifyRefusal, notTakingText, sessionFor } from '../accounts/index.js';
import { selectionName, sortMarkets } from '../model/markets.js';
import { checkMinOdds, checkStake, type PriceRoute, type SlipPayload, slipKind } from '../model/slip-rules.js';
import { noPriceText } from '../model/user-errors.js';
import { SportNotTakenError, UserFacingError } from '../model/user-facing-error.js';
import { type GuildSettings, getSettings, stakeLimits } from '../settings/index.js';
import { bankAtAccount } from './bank.js';
import type { LivePrices } from './placement.js';
import { waitForPriceCheck } from './price-wait.js';
import { type Cards, cardsForFair, slipEdgeOf } from './slip-edge.js';
import {
  kindLivePrice,
  type MultiSlipRequest,
  type PromoSlipRequest,
  prepareMultiSlip,
  preparePromoSlip,
  prepareRacingSlip,
  prepareStackSlip,
  type RacingSlipRequest,
  type SlipKindDeps,
  type SlipLifetime,
  type StackSlipRequest,
} from './slip-kinds.js';
import type { SlipRecord } from './slips.js';

export interface SlipRequest {
  guildId: string | null;
  channelId: string;
  userId: string;
  epk: string;
  bookie: string;
  marketRef: string;
  /** Whole cents, read from what the member typed (checked against the limits with checkStake). */
  stakeCents: number;
  minOdds?: number;
  /**
   * Set when /bet chose the book (no bookie named): the session it chose and the live price it just checked there,
   * so the slip goes through that session at that price instead of a second check; `route` is shown on the slip.
   */
  routed?: { sessionId: string; live: number; route: PriceRoute; cards?: Cards };
  /**
   * The session to bet through when the member picked it from a price read there (/compare's "Bet at best",
   * "Bet again at" after a price move): still checked active and on the book, and the price is checked again.
   * Otherwise the book's session.
   */
  sessionId?: string;
  /** The guild's settings when the interaction's gate already read them (read once per interaction). */
  settings?: GuildSettings;
  /** The bank (cents) the gate read; null: none set. Read here when absent. */
  bankCents?: number | null;
}

function findSelection(
  card: MarketCard,
  marketRef: string,
): { market: MarketCard['markets'][number]; sel: MarketSelection } | undefined {
  for (const market of sortMarkets(card.markets)) {
    const sel = market.selections.find((s) => s.market_ref === marketRef);
    if (sel) return { market, sel };
  }
  return undefined;
}

/** A sports price-check result's price for one market_ref (or the only price it carries). */
export function livePriceOf(result: SportsPriceCheckResult, marketRef: string): number | undefined {
  if (result.status !== 'success') return undefined;
  const rows = result.selections ?? [];
  const row = rows.find((s) => s.market_ref === marketRef) ?? (rows.length === 1 ? rows[0] : undefined);
  const price = row?.price;
  return typeof price === 'number' && price > 1 ? price : undefined;
}

/**
 * Slips of every kind made ready to confirm: the session chosen, the stake and selection checked, the live price
 * read and the slip stored. Sports slips are built here, racing and promo ones by slip-kinds.ts with the same deps.
 * Confirm reads its price again through livePriceFor.
 */
export class SlipFactory implements LivePrices {
  constructor(private readonly d: SlipKindDeps) {}

  /** Picks the session for a bookie: the admin's choice, else the first active one; refuses an inactive one. */
  sessionFor(guildId: string | null, bookie: string, known?: GuildSettings): Promise<string> {
    return sessionFor(this.d, guildId, bookie, known);
  }

  /** Live price of one selection, by market_ref, through the price check of the session. */
  async livePrice(sessionId: string, sport: string, epk: string, marketRef: string, bookie?: string): Promise<number> {
    const submission = await this.d.gateway.priceChecks.sports({
      session_ids: [sessionId],
      category: 'sports',
      sport,
      epk,
      market_ref: marketRef,
      ...(this.d.callbackUrl ? { callback_url: this.d.callbackUrl } : {}),
    });
    const job = submission.jobs[0];
    if (!job) throw new UserFacingError('The price check returned nothing. Try again in a moment.');
    const outcome = await waitForPriceCheck(job, bookie, this.d.tunables.priceCheckWaitMs);
    if (outcome.status !== 'completed') {
      throw new UserFacingError(`The price check did not finish (${outcome.status}). Try again in a moment.`);
    }
    const price = livePriceOf(outcome.result, marketRef);
    if (price !== undefined) return price;
    const error = outcome.result.error;
    if (bookie && classifyRefusal(error) === 'not_offered') {
      throw await this.#sportNotTaken({ sessionId, bookie, sport, epk, error: String(error) });
    }
    throw new UserFacingError(noPriceText(error, bookie));
  }

  /** The book refused the sport: remembered, and said with the event's other books that take it (the way on). */
  async #sportNotTaken(q: {
    sessionId: string;
    bookie: string;
    sport: string;
    epk: string;
    error: string;
  }): Promise<SportNotTakenError> {
    await this.d.accounts?.sportRefused({
      sessionId: q.sessionId,
      bookie: q.bookie,
      sport: q.sport,
      errorText: q.error,
    });
    const refusing = (await this.d.accounts?.booksNotTaking(q.sport)) ?? new Set<string>();
    const books = (await this.d.catalog.event(q.epk))?.books ?? [];
    const takers = books.filter((b) => b !== q.bookie && !refusing.has(b));
    const said = q.error.replace(/^[a-z]+(?:_[a-z]+)+:?\s*/, '').replace(/\.$/, '');
    const wayOn = takers.length
      ? `${takers.join(', ')} ${takers.length === 1 ? 'takes' : 'take'} them: run /bet without bookie: and the desk routes it to the best of them.`
      : 'No other book of this event takes them now.';
    return new SportNotTakenError(
      `${q.bookie} ${notTakingText(q.sport)}${said ? ` (the book says: ${said})` : ''}. ${wayOn}`,
      q.bookie,
      q.sport,
    );
  }

  /** The live price of any kind of slip (sports by market_ref, a racing runner, a promo card's boosted price). */
  async livePriceFor(p: SlipPayload): Promise<number> {
    if (slipKind(p) === 'sports') return this.livePrice(p.sessionId, p.sport, p.epk, p.marketRef, p.bookie);
    const live = await kindLivePrice(this.d.gateway, p, this.d.callbackUrl, this.d.tunables.priceCheckWaitMs);
    if (live === undefined) throw new UserFacingError('This slip cannot be priced any more. Make a new one.');
    return live;
  }

  /** A racing slip (win or place on a runner at one book), price-checked and stored like a sports one. */
  prepareRacingSlip(req: RacingSlipRequest, expiresInMs?: SlipLifetime): Promise<SlipRecord<SlipPayload>> {
    return prepareRacingSlip(this.d, req, expiresInMs);
  }

  /** A same-race multi slip (legs on one race at one book, placed through place_bet with its legs). */
  prepareMultiSlip(req: MultiSlipRequest, expiresInMs?: SlipLifetime): Promise<SlipRecord<SlipPayload>> {
    return prepareMultiSlip(this.d, req, expiresInMs);
  }

  /** A stack slip: a multi or stack slip's multis and one more on the race, placed in one stacked_srm call. */
  prepareStackSlip(req: StackSlipRequest, expiresInMs?: SlipLifetime): Promise<SlipRecord<SlipPayload>> {
    return prepareStackSlip(this.d, req, expiresInMs);
  }

  /** A promo slip (a bet-boost card placed by id through place_promo). */
  preparePromoSlip(req: PromoSlipRequest, expiresInMs?: SlipLifetime): Promise<SlipRecord<SlipPayload>> {
    return preparePromoSlip(this.d, req, expiresInMs);
  }

  /**
   * Checks everything a slip needs, price-checks it and stores it; the caller shows slipView. A slip that
   * becomes a proposal lives as long as the proposal (`expiresInMs`).
   */
  async prepareSlip(req: SlipRequest, expiresInMs?: (stakeCents: number) => number): Promise<SlipRecord<SlipPayload>> {
    const settings = req.settings ?? (await getSettings(this.d.store, req.guildId));
    const sessionId = req.routed
      ? await chosenSession(this.d.catalog, req.routed.sessionId, req.bookie, 'Run /bet again.')
      : req.sessionId
        ? await chosenSession(this.d.catalog, req.sessionId, req.bookie, 'Make a new slip with /bet or /compare.')
        : await this.sessionFor(req.guildId, req.bookie, settings);
    const account = await accountOf(this.d.catalog, sessionId);
    // A bet through an account outside the fund is sized without the fund's NAV (decision 1910).
    const { bankCents, outsideFund } = await bankAtAccount(
      this.d.bank,
      req.guildId,
      { bookie: req.bookie, username: account },
      req.bankCents,
    );
    const limits = stakeLimits(settings, this.d.tunables, bankCents);
    const stakeCheck = checkStake(req.stakeCents, limits);
    if (!stakeCheck.ok) throw new UserFacingError(stakeCheck.message);
    const card = await this.d.catalog.loadCard(req.epk, req.bookie);
    if (!card.bound)
      throw new UserFacingError(
        `${req.bookie} is not attached to this event, so no bet can be routed. Pick another book.`,
      );
    if (!card.market_ref_betting_enabled) {
      throw new UserFacingError(`${req.bookie} does not take bets by market reference right now. Pick another book.`);
    }
    const found = findSelection(card, req.marketRef);
    if (!found?.sel.bettable) {
      throw new UserFacingError(
        'That selection is no longer bettable on this card. Open the card again with /markets and pick another.',
      );
    }
    const event = await this.d.catalog.event(req.epk);
    const sport = event?.sport ?? req.epk.split('/')[0] ?? '';
    const live = req.routed?.live ?? (await this.livePrice(sessionId, sport, req.epk, req.marketRef, req.bookie));
    const minCheck = checkMinOdds(req.minOdds, live);
    if (!minCheck.ok) throw new UserFacingError(minCheck.message);
    // A book the member picked is still used, but the slip says when its account has been limiting or refusing.
    const warning = req.routed
      ? {}
      : ((await this.d.accounts?.slipWarning({
          sessionId,
          bookie: req.bookie,
          sport: event?.league ?? sport,
          market: found.market.market,
          stakeCents: req.stakeCents,
        })) ?? {});
    const edge =
      this.d.fairPrice === false
        ? undefined
        : slipEdgeOf({
            cards: await cardsForFair(this.d.catalog, req.epk, { bookie: req.bookie, card }, req.routed?.cards),
            market: found.market.market,
            marketRef: req.marketRef,
            odds: live,
            settings,
            bankCents,
            capCents: limits.perBetCents,
          });
    const now = this.d.now();
    const slip: SlipRecord<SlipPayload> = {
      slipId: randomBytes(9).toString('base64url'),
      guildId: req.guildId,
      channelId: req.channelId,
      messageId: null,
      userId: req.userId,
      createdAt: now,
      expiresAt: now + (expiresInMs?.(req.stakeCents) ?? this.d.tunables.slipExpiryMs),
      payload: {
        epk: req.epk,
        sport,
        ...(event?.league ? { league: event.league } : {}),
        eventName: event?.name ?? req.epk,
        bookie: req.bookie,
        sessionId,
        ...(account ? { account } : {}),
        marketKey: found.market.market,
        marketLabel: found.market.label || found.market.market,
        selectionLabel: selectionName(found.sel.label, found.sel.line),
        selectionName: found.sel.label,
        ...(found.sel.line !== undefined ? { line: found.sel.line } : {}),
        marketRef: req.marketRef,
        stakeCents: req.stakeCents,
        ...(event && Number.isFinite(Date.parse(event.start_time)) ? { startsAt: Date.parse(event.start_time) } : {}),
        shownOdds: live,
        ...(req.minOdds === undefined ? {} : { minOdds: req.minOdds }),
        ...(event?.start_time ? { startTime: event.start_time } : {}),
        ...warning,
        userId: req.userId,
        ...(req.routed ? { route: req.routed.route } : {}),
        ...(bankCents === null ? {} : { capBankCents: bankCents }),
        ...(outsideFund ? { outsideFund: true } : {}),
        ...(edge ? { edge } : {}),
      },
    };
    await this.d.slips.create(slip);
    return slip;
  }
}
