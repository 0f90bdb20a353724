import type { Logger } from '../config/logger.js';
import type { GatewayPort } from '../gateway-port.js';
import { readTransactionsSince } from '../jobs/index.js';
import type { MessageView } from '../model/limits.js';
import { singlePass } from '../ops/single-flight.js';
import type { Outbox } from '../outbox/index.js';
import { getSettings } from '../settings/index.js';
import type { BotStore } from '../store/index.js';
import type { BetRecord, BetRecordRepo } from './bet-records.js';
import { type Settlement, settlementOf } from './model/settlement.js';

/** Gap between two sessions' transaction reads, so one tick never bursts the gateway. */
const PACE_MS = 250;
/** Complete reads that did not list a placed bet before it is flagged to the members and no longer read. */
const MISSES_BEFORE_FLAG = 3;

/** How the watcher's two notices are worded (src/bot/betting/views/notice.ts): the watcher decides, the presenter speaks. */
export interface SettlementPresenter {
  /** A bet the book settled. */
  settled(input: { settlement: Settlement; userId: string | null; detail: Record<string, unknown> }): MessageView;
  /** A placed bet the book's history no longer lists. */
  missing(bet: BetRecord): MessageView;
}

export interface SettlementWatcherOptions {
  gateway: GatewayPort;
  store: BotStore;
  records: BetRecordRepo;
  outbox: Outbox;
  logger: Logger;
  now: () => number;
  intervalMs: number;
  callbackUrl: string | undefined;
  present: SettlementPresenter;
}

/**
 * For sessions with placed bets not yet seen settled: read transactions back to the oldest of them (paced per
 * session) and queue one notice per settled bet in the guild's results channel. The notice is recorded in the
 * outbox (keyed by bet id) before the record moves to `settled`, so a crash between the two repeats only the
 * move; the outbox sends it until Discord accepts it, once.
 */
export class SettlementWatcher {
  #timer: NodeJS.Timeout | undefined;
  readonly #passes = singlePass(() => this.#pass());
  #stopped = false;

  constructor(private readonly o: SettlementWatcherOptions) {}

  start(): void {
    if (this.#timer || this.#stopped) return;
    this.#timer = setInterval(() => void this.tick().catch(() => undefined), this.o.intervalMs);
    this.#timer.unref();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#passes.settled();
  }

  /** One pass; overlapping calls share the pass in progress. Returns the number of notices queued. */
  tick(): Promise<number> {
    return this.#passes.run();
  }

  /** A pass that begins after this call (after a settle the caller knows of); returns its number of notices. */
  tickFresh(): Promise<number> {
    return this.#passes.runFresh();
  }

  async #pass(): Promise<number> {
    let queued = 0;
    const open = await this.o.records.inStates(['placed']);
    const bySession = new Map<string, BetRecord[]>();
    for (const r of open) bySession.set(r.sessionId, [...(bySession.get(r.sessionId) ?? []), r]);
    let i = 0;
    for (const [sessionId, bets] of bySession) {
      if (this.#stopped) break;
      if (i++ > 0) await new Promise((r) => setTimeout(r, PACE_MS));
      try {
        queued += await this.#session(sessionId, bets);
      } catch (err) {
        this.o.logger.warn('reading settlements failed; will retry', { sessionId, err });
      }
    }
    return queued;
  }

  async #session(sessionId: string, bets: BetRecord[]): Promise<number> {
    const now = this.o.now();
    const oldest = Math.min(...bets.map((b) => b.createdAt));
    const read = await readTransactionsSince(this.o.gateway, sessionId, oldest - 120_000, now, {
      callbackUrl: this.o.callbackUrl,
      minLimit: Math.max(200, bets.length * 4),
    });
    if (!read) return 0;
    const byId = new Map(read.transactions.map((t) => [t.id, t]));
    let queued = 0;
    for (const bet of bets) {
      const tx = bet.betId === null ? undefined : byId.get(bet.betId);
      if (!tx) {
        if (read.complete) await this.#missed(bet);
        continue;
      }
      // The gateway's dollars become cents here, once: the record, its ledger entry and the notice take these.
      const settlement = settlementOf(tx);
      if (!settlement) continue;
      const settings = await getSettings(this.o.store, bet.guildId);
      const channelId = settings.resultsChannelId ?? bet.channelId;
      await this.o.outbox.create(
        `settle:${tx.id}`,
        channelId,
        this.o.present.settled({
          settlement,
          userId: bet.userId,
          detail: bet.payload as unknown as Record<string, unknown>,
        }),
      );
      const moved = await this.o.records.markSettled(
        bet.placementId,
        { settledStatus: settlement.status, pnlCents: settlement.pnlCents },
        this.o.now(),
      );
      if (moved) queued++;
    }
    return queued;
  }

  /** A placed bet the book's history does not list: after a few complete reads, members are told once. */
  async #missed(bet: BetRecord): Promise<void> {
    const misses = await this.o.records.countMiss(bet.placementId, this.o.now());
    if (misses < MISSES_BEFORE_FLAG) return;
    const settings = await getSettings(this.o.store, bet.guildId);
    await this.o.outbox.create(
      `missing:${bet.placementId}`,
      settings.resultsChannelId ?? bet.channelId,
      this.o.present.missing(bet),
    );
    await this.o.records.markMissing(bet.placementId, { note: 'not in the book history' }, this.o.now());
    this.o.logger.warn('a placed bet is not in the book history; flagged to the members', { betId: bet.betId });
  }
}
