import type { SlipPayload } from '../model/slip-rules.js';
import type { BetRecord, BetRecordRepo } from '../repos/bet-records.js';
import type { GuildSettings } from '../repos/guild-settings.js';
import type { SlipRecord, SlipRepo } from '../repos/slips.js';
import type { BetResults } from './bet-results.js';
import type { CancelResult, ConfirmResult, Placement } from './placement.js';
import type { SlipFactory, SlipRequest } from './slip-factory.js';
import type { PromoSlipRequest, RacingSlipRequest, SlipLifetime } from './slip-kinds.js';

export interface BetServiceDeps {
  factory: SlipFactory;
  placement: Placement;
  results: BetResults;
  slips: SlipRepo;
  records: BetRecordRepo;
}

/**
 * The bet flow as handlers and commands call it (`ctx.bets`): slips are made by the SlipFactory, confirmed and sent
 * by Placement, and their records shown by BetResults. Only attachMessage is its own: storing a slip's message and
 * showing the bet's state there when a claim came first.
 */
export class BetService {
  constructor(private readonly d: BetServiceDeps) {}

  /** The session for a bookie (see SlipFactory.sessionFor). */
  sessionFor(guildId: string | null, bookie: string, known?: GuildSettings): Promise<string> {
    return this.d.factory.sessionFor(guildId, bookie, known);
  }

  /** Live price of one sports selection (see SlipFactory.livePrice). */
  livePrice(sessionId: string, sport: string, epk: string, marketRef: string, bookie?: string): Promise<number> {
    return this.d.factory.livePrice(sessionId, sport, epk, marketRef, bookie);
  }

  /** The live price of any kind of slip (see SlipFactory.livePriceFor). */
  livePriceFor(p: SlipPayload): Promise<number> {
    return this.d.factory.livePriceFor(p);
  }

  prepareSlip(req: SlipRequest, expiresInMs?: SlipLifetime): Promise<SlipRecord<SlipPayload>> {
    return this.d.factory.prepareSlip(req, expiresInMs);
  }

  prepareRacingSlip(req: RacingSlipRequest, expiresInMs?: SlipLifetime): Promise<SlipRecord<SlipPayload>> {
    return this.d.factory.prepareRacingSlip(req, expiresInMs);
  }

  preparePromoSlip(req: PromoSlipRequest, expiresInMs?: SlipLifetime): Promise<SlipRecord<SlipPayload>> {
    return this.d.factory.preparePromoSlip(req, expiresInMs);
  }

  async attachMessage(slipId: string, channelId: string, messageId: string): Promise<void> {
    await this.d.slips.setMessage(slipId, channelId, messageId);
    // Already claimed (a quick last approval): the message shows the bet's state from now on.
    const record = await this.d.records.bySlip(slipId);
    if (record) await this.show(record);
  }

  /** The bet record a slip was claimed into, if any. */
  recordOf(slipId: string): Promise<BetRecord | undefined> {
    return this.d.records.bySlip(slipId);
  }

  /** Confirm (see Placement.confirm). */
  confirm(
    slipId: string,
    userId: string,
    where: { channelId: string; messageId: string | null },
    opts: { approved?: boolean } = {},
  ): Promise<ConfirmResult> {
    return this.d.placement.confirm(slipId, userId, where, opts);
  }

  /** Cancel by the owner (see Placement.cancel). */
  cancel(slipId: string, userId: string): Promise<CancelResult> {
    return this.d.placement.cancel(slipId, userId);
  }

  /** Sends a promo record again with its stored idempotency key (see Placement.resendPromo). */
  resendPromo(record: BetRecord): Promise<BetRecord> {
    return this.d.placement.resendPromo(record);
  }

  /** Re-queues the message of a record (after reconciliation or a restart). */
  show(record: BetRecord): Promise<void> {
    return this.d.results.show(record);
  }
}
