import { randomBytes } from 'node:crypto';
import type { Catalog } from './catalog.js';
import type { BotTunables } from './config.js';
import { dayIn } from './dates.js';
import type { GatewayPort, GwBetResult, GwMarketCard, GwSelection, JobOutcome } from './gateway-port.js';
import type { ResultTracker } from './job-tracker.js';
import type { Logger } from './logger.js';
import { formatMoney } from './odds.js';
import type { DiscordPoster } from './poster.js';
import type { BetRepo } from './repos/bets.js';
import type { JobRecord } from './repos/jobs.js';
import type { SlipRecord, SlipRepo } from './repos/slips.js';
import type { StakeRepo } from './repos/stakes.js';
import { getSettings, stakeLimits } from './settings.js';
import { checkMinOdds, checkStake, decideOnLivePrice, type SlipPayload } from './slip-rules.js';
import type { BotStore } from './store.js';
import { UserFacingError } from './user-errors.js';
import { selectionName, sortMarkets } from './views/card.js';
import { closedSlipView, jobLostView, receiptView, submittedView } from './views/slip.js';

const PRICE_CHECK_WAIT_MS = 20_000;

export interface BetServiceDeps {
  gateway: GatewayPort;
  store: BotStore;
  catalog: Catalog;
  slips: SlipRepo;
  stakes: StakeRepo;
  bets: BetRepo;
  tracker: ResultTracker;
  poster: DiscordPoster;
  tunables: BotTunables;
  callbackUrl: string | undefined;
  logger: Logger;
  now: () => number;
}

export interface SlipRequest {
  guildId: string | null;
  channelId: string;
  userId: string;
  epk: string;
  bookie: string;
  marketRef: string;
  stake: number;
  minOdds?: number;
}

export interface BetJobContext {
  slip: SlipPayload;
  guildId: string | null;
  userId: string;
  day: string;
  odds: number;
}

export type ConfirmResult =
  | { kind: 'submitted'; correlationId: string; odds: number; slip: SlipPayload }
  | {
      kind: 'refused';
      message: string;
      slip?: SlipPayload;
      closeSlip: boolean;
      expired?: boolean;
      gone?: boolean;
      /** The live price when the refusal is "the price moved": the slip offers to bet again at it. */
      priceMoved?: number;
    };

function findSelection(
  card: GwMarketCard,
  marketRef: string,
): { market: GwMarketCard['markets'][number]; sel: GwSelection } | undefined {
  for (const market of sortMarkets(card.markets)) {
    const sel = market.selections.find((s) => s.market_ref === marketRef);
    if (sel) return { market, sel };
  }
  return undefined;
}

/** A sports price-check result's price for one market_ref (or the only price it carries). */
export function livePriceOf(result: unknown, marketRef: string): number | undefined {
  if (!result || typeof result !== 'object') return undefined;
  const r = result as { status?: string; selections?: Array<Record<string, unknown>>; price?: unknown };
  if (r.status !== undefined && r.status !== 'success') return undefined;
  if (typeof r.price === 'number') return r.price;
  const rows = r.selections ?? [];
  const row = rows.find((s) => s.market_ref === marketRef) ?? (rows.length === 1 ? rows[0] : undefined);
  const price = row?.price ?? row?.odds;
  return typeof price === 'number' && price > 1 ? price : undefined;
}

/**
 * The bet flow without Discord: build a slip (price-checked), confirm it once, place by market_ref,
 * and turn the result into one edit of the slip message.
 */
export class BetService {
  constructor(private readonly d: BetServiceDeps) {
    d.tracker.on('bet', (job, outcome) => this.#onBetOutcome(job as JobRecord<BetJobContext>, outcome));
  }

  /** Picks the session for a bookie: the admin's choice, else the first active one; refuses an inactive one. */
  async sessionFor(guildId: string | null, bookie: string): Promise<string> {
    const settings = await getSettings(this.d.store, guildId);
    const sessions = await this.d.catalog.loadSessions();
    const chosen = settings.sessions[bookie];
    if (chosen !== undefined) {
      const s = sessions.find((x) => x.session_id === chosen);
      if (!s)
        throw new UserFacingError(
          `The session chosen for ${bookie} (${chosen}) no longer exists. An admin can pick another with /settings.`,
        );
      if (!s.active) {
        throw new UserFacingError(
          `The session chosen for ${bookie} (${chosen}) is inactive. Start it, or have an admin pick another with /settings.`,
        );
      }
      return chosen;
    }
    const active = sessions.find((s) => s.bookie === bookie && s.active);
    if (!active) {
      throw new UserFacingError(
        `No active session for ${bookie}. Start one (see /sessions), or bet with another book.`,
      );
    }
    return active.session_id;
  }

  /** Live price of one selection, by market_ref, through the price check of the session. */
  async livePrice(sessionId: string, sport: string, epk: string, marketRef: string): Promise<number> {
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
    const outcome = await job.wait({ signal: AbortSignal.timeout(PRICE_CHECK_WAIT_MS) });
    if (outcome.status !== 'completed') {
      throw new UserFacingError(`The price check did not finish (${outcome.status}). Try again in a moment.`);
    }
    const price = livePriceOf(outcome.result, marketRef);
    if (price === undefined) {
      const err = (outcome.result as { error?: unknown } | undefined)?.error;
      throw new UserFacingError(
        `The bookmaker gave no live price for this selection${typeof err === 'string' ? ` (${err.slice(0, 200)})` : ''}. It may be suspended: pick another.`,
      );
    }
    return price;
  }

  /** Checks everything a slip needs, price-checks it and stores it; the caller shows slipView. */
  async prepareSlip(req: SlipRequest): Promise<SlipRecord<SlipPayload>> {
    const settings = await getSettings(this.d.store, req.guildId);
    const stakeCheck = checkStake(req.stake, stakeLimits(settings, this.d.tunables));
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
    const sessionId = await this.sessionFor(req.guildId, req.bookie);
    const live = await this.livePrice(sessionId, sport, req.epk, req.marketRef);
    const minCheck = checkMinOdds(req.minOdds, live);
    if (!minCheck.ok) throw new UserFacingError(minCheck.message);
    const now = this.d.now();
    const slip: SlipRecord<SlipPayload> = {
      slipId: randomBytes(9).toString('base64url'),
      guildId: req.guildId,
      channelId: req.channelId,
      messageId: null,
      userId: req.userId,
      createdAt: now,
      expiresAt: now + this.d.tunables.slipExpiryMs,
      payload: {
        epk: req.epk,
        sport,
        eventName: event?.name ?? req.epk,
        bookie: req.bookie,
        sessionId,
        marketKey: found.market.market,
        marketLabel: found.market.label || found.market.market,
        selectionLabel: selectionName(found.sel.label, found.sel.line),
        marketRef: req.marketRef,
        stake: req.stake,
        shownOdds: live,
        ...(req.minOdds === undefined ? {} : { minOdds: req.minOdds }),
        ...(event?.start_time ? { startTime: event.start_time } : {}),
        userId: req.userId,
      },
    };
    await this.d.slips.create(slip);
    return slip;
  }

  async attachMessage(slipId: string, channelId: string, messageId: string): Promise<void> {
    await this.d.slips.setMessage(slipId, channelId, messageId);
  }

  /**
   * Confirm: claim the slip (one winner), reserve the day's stake, re-check the live price, place.
   * `showSubmitted` runs after the 202 is stored and before the result may be shown.
   */
  async confirm(
    slipId: string,
    userId: string,
    where: { channelId: string; messageId: string },
    showSubmitted: (slip: SlipPayload, odds: number, correlationId: string) => Promise<unknown>,
  ): Promise<ConfirmResult> {
    const now = this.d.now();
    const claim = await this.d.slips.claim<SlipPayload>(slipId, userId, now);
    if (claim.kind === 'not_owner') {
      return {
        kind: 'refused',
        message: `Only <@${claim.ownerId}> can confirm this slip. Make your own with /bet.`,
        closeSlip: false,
      };
    }
    if (claim.kind === 'expired') {
      return {
        kind: 'refused',
        message: 'This slip expired before it was confirmed. Nothing was placed; run /bet again.',
        slip: claim.slip.payload,
        closeSlip: true,
        expired: true,
      };
    }
    if (claim.kind === 'gone') {
      return {
        kind: 'refused',
        message: 'This slip was already confirmed or cancelled.',
        closeSlip: false,
        gone: true,
      };
    }
    const { slip } = claim;
    const p = slip.payload;
    const settings = await getSettings(this.d.store, slip.guildId);
    const limits = stakeLimits(settings, this.d.tunables);
    const perBet = checkStake(p.stake, limits);
    if (!perBet.ok) return { kind: 'refused', message: perBet.message, slip: p, closeSlip: true };
    const day = dayIn(now, settings.timezone);
    const guildKey = slip.guildId ?? 'dm';
    const reserved = await this.d.stakes.reserve(guildKey, userId, day, p.stake, limits.perDay);
    if (!reserved.ok) {
      return {
        kind: 'refused',
        message: `Not placed: this bet would take you past today's limit of ${formatMoney(limits.perDay)} (already staked ${formatMoney(reserved.used)}). Try a smaller stake or tomorrow.`,
        slip: p,
        closeSlip: true,
      };
    }
    const release = () => this.d.stakes.release(guildKey, userId, day, p.stake);
    let live: number;
    try {
      live = await this.livePrice(p.sessionId, p.sport, p.epk, p.marketRef);
    } catch (err) {
      await release();
      throw err;
    }
    const decision = decideOnLivePrice(p, live, this.d.tunables.priceTolerance);
    if (!decision.ok) {
      await release();
      return { kind: 'refused', message: decision.message, slip: p, closeSlip: true, priceMoved: live };
    }
    let handle: Awaited<ReturnType<GatewayPort['bets']['place']>>;
    try {
      handle = await this.d.gateway.bets.place({
        session_id: p.sessionId,
        category: 'sports',
        sport: p.sport,
        epk: p.epk,
        market_ref: p.marketRef,
        stake: p.stake,
        target_odds: decision.floor,
        ...(this.d.callbackUrl ? { callback_url: this.d.callbackUrl } : {}),
      });
    } catch (err) {
      const mayHavePlaced = (err as { mayHaveReachedServer?: boolean }).mayHaveReachedServer === true;
      if (!mayHavePlaced) await release();
      if (mayHavePlaced) {
        throw new UserFacingError(
          'The gateway stopped answering while the bet was being sent; it may or may not have been placed. It was NOT resent: check /jobs and /balance before betting again.',
        );
      }
      throw err;
    }
    // The 202 is stored before anything else happens to it.
    const context: BetJobContext = { slip: p, guildId: slip.guildId, userId, day, odds: live };
    await this.d.tracker.record({
      correlationId: handle.correlationId,
      kind: 'bet',
      guildId: slip.guildId,
      channelId: where.channelId,
      messageId: where.messageId,
      userId,
      sessionId: p.sessionId,
      envelope: handle.envelope as unknown as Record<string, unknown>,
      context,
    });
    const shown = showSubmitted(p, live, handle.correlationId);
    this.d.tracker.track(handle.envelope, shown);
    await shown;
    return { kind: 'submitted', correlationId: handle.correlationId, odds: live, slip: p };
  }

  /** Cancel by the owner is a claim as well, so Cancel and Confirm cannot both win. */
  async cancel(slipId: string, userId: string): Promise<ConfirmResult> {
    const slip = await this.d.slips.get<SlipPayload>(slipId);
    if (!slip) return { kind: 'refused', message: 'This slip was already confirmed or cancelled.', closeSlip: false };
    if (slip.userId !== userId) {
      return { kind: 'refused', message: `Only <@${slip.userId}> can cancel this slip.`, closeSlip: false };
    }
    const claim = await this.d.slips.cancel(slipId, userId);
    if (claim.kind !== 'claimed')
      return { kind: 'refused', message: 'This slip was already confirmed or cancelled.', closeSlip: false };
    return { kind: 'refused', message: 'Cancelled. Nothing was placed.', slip: slip.payload, closeSlip: true };
  }

  async #onBetOutcome(job: JobRecord<BetJobContext>, outcome: JobOutcome): Promise<void> {
    const ctx = job.context;
    const guildKey = ctx.guildId ?? 'dm';
    let view: ReturnType<typeof receiptView>;
    if (outcome.status === 'completed') {
      const result = (outcome.result ?? { success: false }) as GwBetResult;
      view = receiptView(ctx.slip, result);
      const inner = result.bet_result ?? undefined;
      const betId = inner?.bet_id ?? result.bet_id ?? undefined;
      const placed = result.success && (inner?.success ?? true) && !!betId;
      if (placed && betId) {
        await this.d.bets.recordPlaced({
          betId,
          sessionId: ctx.slip.sessionId,
          guildId: ctx.guildId,
          channelId: job.channelId,
          userId: ctx.userId,
          correlationId: job.correlationId,
          detail: { ...ctx.slip, odds: inner?.odds ?? result.odds ?? ctx.odds },
          placedAt: this.d.now(),
        });
      } else {
        await this.d.stakes.release(guildKey, ctx.userId, ctx.day, ctx.slip.stake);
      }
    } else {
      view = jobLostView(ctx.slip, outcome.status);
    }
    if (job.channelId && job.messageId) await this.d.poster.edit(job.channelId, job.messageId, view);
  }
}

export { closedSlipView, submittedView };
