import { upcomingWindow } from '../../src/bot/catalog/handlers/choices.js';
import { createLogger } from '../../src/bot/config/logger.js';
import { type RunningBot, startBot } from '../../src/bot/index.js';
import { bettable } from '../../src/bot/model/markets.js';
import type { Event, MarketCard } from '../../src/gateway/index.js';
import type { LocalDiscord, OptionInput } from '../../src/local-discord/index.js';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { startDesk as startE2eDesk } from './harness.js';
import { until } from './wait.js';

export { API_KEY } from './harness.js';

/**
 * Sends a slash command from a member in the bets channel and waits for its first public reply (with an embed,
 * or also plain content unless `embedsOnly`); `ackMs` is how long the bot took to acknowledge it.
 */
export async function runCommand(
  desk: Desk,
  name: string,
  options: OptionInput,
  opts: { subcommand?: string; user?: 'admin' | 'bettor' | 'viewer'; embedsOnly?: boolean } = {},
) {
  const { ld } = desk;
  const ix = await ld.sendCommand({
    user: ld.users[opts.user ?? 'bettor'],
    channelId: ld.channelIds.bets,
    name,
    options,
    ...(opts.subcommand ? { subcommand: opts.subcommand } : {}),
  });
  const ack = await ix.acknowledged;
  const reply = await until(
    `the /${name} reply`,
    () =>
      ix.responses().find((m) => (m.embeds.length > 0 || (!opts.embedsOnly && m.content)) && !((m.flags ?? 0) & 128)),
    { timeoutMs: 30_000 },
  );
  return { reply, ackMs: ack.ms };
}

export interface Desk {
  sandbox: RunningSandbox;
  ld: LocalDiscord;
  bot: RunningBot;
  logs: string[];
  env: Record<string, string>;
  /** The bot's clock, pinned to the sandbox's (the harness's default). */
  now: () => number;
  restart(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The end-to-end desk (sandbox gateway + local Discord + the real bot on a sqlite file, all on loopback), with
 * the bot started from src/bot directly so tests reach its context, its log lines kept in `logs`, and a 250 ms
 * poll. `betRole: false` leaves betting closed; otherwise the admin sets the fixture's Bettor role at start.
 */
export async function startDesk(
  opts: { webhooks?: boolean; env?: Record<string, string>; betRole?: boolean } = {},
): Promise<Desk> {
  const logs: string[] = [];
  const desk = await startE2eDesk<RunningBot>({
    sandbox: { host: '127.0.0.1' },
    ...(opts.webhooks ? { webhooks: true } : {}),
    ...(opts.env ? { env: opts.env } : {}),
    ...(opts.betRole === false ? { betRole: false } : {}),
    startBot: (config, deps, secrets) =>
      startBot(config, {
        ...deps,
        logger: createLogger({ level: 'debug', secrets, write: (l) => logs.push(l) }),
        pollIntervalMs: 250,
      }),
  });
  return {
    sandbox: desk.sandbox,
    ld: desk.ld,
    get bot() {
      return desk.bot;
    },
    logs,
    env: desk.env,
    now: desk.now,
    restart: () => desk.restartBot(),
    close: () => desk.close(),
  };
}

export interface LooseControl {
  type: number;
  custom_id?: string;
  label?: string;
  options?: Array<{ label: string; value: string }>;
}

/** Every button/select of a message, flattened (the local Discord returns Discord's message JSON). */
export function controls(message: { components?: unknown } | undefined): LooseControl[] {
  const rows = (message?.components ?? []) as Array<{ components?: LooseControl[] }>;
  return rows.flatMap((r) => r.components ?? []);
}

export function control(message: { components?: unknown } | undefined, prefix: string): LooseControl | undefined {
  return controls(message).find((c) => c.custom_id?.startsWith(prefix));
}

/** The first prematch event whose bookie_a card takes market_ref bets on at least one selection. */
export async function bettableBookieACard(desk: Desk): Promise<{ event: Event; card: MarketCard } | undefined> {
  const { catalog } = desk.bot.context;
  const events = await catalog.loadEvents(upcomingWindow(desk.now()));
  for (const event of events.filter((e) => e.status === 'prematch' && (e.books ?? []).includes('bookie_a'))) {
    const card = await catalog.loadCard(event.event_id, 'bookie_a');
    if (card.bound && card.market_ref_betting_enabled && card.markets.some((m) => bettable(m).length > 0)) {
      return { event, card };
    }
  }
  return undefined;
}
