import type { GatewayPort, GwTransactionsResult } from './gateway-port.js';
import type { Logger } from './logger.js';
import type { DiscordPoster } from './poster.js';
import type { BetRepo } from './repos/bets.js';
import type { OnceRepo } from './repos/once.js';
import { getSettings } from './settings.js';
import type { BotStore } from './store.js';
import { settlementView } from './views/notice.js';

const SETTLED = new Set(['won', 'lost', 'void', 'cashed_out']);
/** Gap between two sessions' transaction reads, so one tick never bursts the gateway. */
const PACE_MS = 250;
const TX_WAIT_MS = 60_000;

export interface SettlementWatcherOptions {
  gateway: GatewayPort;
  store: BotStore;
  bets: BetRepo;
  once: OnceRepo;
  poster: DiscordPoster;
  logger: Logger;
  now: () => number;
  intervalMs: number;
  callbackUrl: string | undefined;
}

/**
 * For sessions with bets the bot placed and has not seen settle: read transactions (async, paced) and
 * post one notice per settled bet in the guild's results channel. The post key is claimed first
 * (INSERT ... ON CONFLICT DO NOTHING), so a notice is never posted twice, also across restarts.
 */
export class SettlementWatcher {
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<number> | undefined;
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
    await this.#running?.catch(() => undefined);
  }

  /** One pass; overlapping calls share the pass in progress. Returns the number of notices posted. */
  tick(): Promise<number> {
    this.#running ??= this.#pass().finally(() => {
      this.#running = undefined;
    });
    return this.#running;
  }

  async #pass(): Promise<number> {
    let posted = 0;
    const sessions = await this.o.bets.openSessions();
    for (const [i, sessionId] of sessions.entries()) {
      if (this.#stopped) break;
      if (i > 0) await new Promise((r) => setTimeout(r, PACE_MS));
      try {
        posted += await this.#session(sessionId);
      } catch (err) {
        this.o.logger.warn('reading settlements failed; will retry', { sessionId, err });
      }
    }
    return posted;
  }

  async #session(sessionId: string): Promise<number> {
    const open = await this.o.bets.openBets(sessionId);
    if (open.length === 0) return 0;
    const handle = await this.o.gateway.transactions.list({
      session_id: sessionId,
      days_back: 7,
      limit: 200,
      ...(this.o.callbackUrl ? { callback_url: this.o.callbackUrl } : {}),
    });
    const outcome = await handle.wait({ signal: AbortSignal.timeout(TX_WAIT_MS) });
    if (outcome.status !== 'completed') return 0;
    const txs = (outcome.result as GwTransactionsResult).transactions ?? [];
    const byId = new Map(txs.map((t) => [t.id, t]));
    let posted = 0;
    for (const bet of open) {
      const tx = byId.get(bet.betId);
      if (!tx || !SETTLED.has(tx.status)) continue;
      const key = `settle:${bet.betId}`;
      if (!(await this.o.once.claimPost(key, this.o.now()))) {
        await this.o.bets.settle(bet.betId, tx.status);
        continue;
      }
      const settings = await getSettings(this.o.store, bet.guildId);
      const channelId = settings.resultsChannelId ?? bet.channelId;
      try {
        if (channelId) {
          await this.o.poster.post(channelId, settlementView({ tx, userId: bet.userId, detail: bet.detail }));
          posted++;
        }
        await this.o.bets.settle(bet.betId, tx.status);
      } catch (err) {
        await this.o.once.releasePost(key);
        throw err;
      }
    }
    return posted;
  }
}
