import { BetRecordRepo } from '../../src/bot/betting/bet-records.js';
import { Reconciler } from '../../src/bot/betting/reconciler.js';
import type { Logger } from '../../src/bot/config/logger.js';
import type { GatewayPort } from '../../src/bot/gateway-port.js';
import type { BotStore } from '../../src/bot/store/index.js';

/**
 * A reconciler over the desk's own store and gateway, run by the test (10-minute window, no timer, no posts).
 * `at` sets its clock (default the desk's); `gateway` stands in for the desk's (e.g. one that counts reads).
 */
export function reconcilerOf(
  bot: { store: BotStore; context: { gateway: GatewayPort; logger: Logger; now?: () => number } },
  opts: { at?: () => number; gateway?: GatewayPort } = {},
): {
  reconciler: Reconciler;
  repo: BetRecordRepo;
} {
  const repo = new BetRecordRepo(bot.store);
  const reconciler = new Reconciler({
    gateway: opts.gateway ?? bot.context.gateway,
    records: repo,
    logger: bot.context.logger,
    now: opts.at ?? bot.context.now ?? Date.now,
    safeWindowMs: 600_000,
    intervalMs: 60_000,
    callbackUrl: undefined,
    show: async () => undefined,
  });
  return { reconciler, repo };
}
