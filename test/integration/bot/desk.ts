import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bettable } from '../../../src/bot/betting/markets.js';
import { upcomingWindow } from '../../../src/bot/catalog/choices.js';
import { parseConfig } from '../../../src/bot/config/config.js';
import { freePort } from '../../../src/bot/config/free-port.js';
import { createLogger } from '../../../src/bot/config/logger.js';
import { type RunningBot, startBot } from '../../../src/bot/index.js';
import type { Event, MarketCard } from '../../../src/gateway/index.js';
import { type LocalDiscord, type OptionInput, startLocalDiscord } from '../../../src/local-discord/index.js';
import { type RunningSandbox, startSandbox } from '../../../src/sandbox/index.js';
import { setBetRole } from '../../e2e/bet-role.js';
import { until } from '../../support/wait.js';

export const API_KEY = 'sandbox-key-alpha';

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
  restart(): Promise<void>;
  close(): Promise<void>;
}

/** Sandbox gateway + local Discord + the real bot on a sqlite file in a temp dir, all on loopback. */
/** `betRole: false` leaves betting closed; otherwise the admin sets the fixture's Bettor role at start. */
export async function startDesk(
  opts: { webhooks?: boolean; env?: Record<string, string>; betRole?: boolean } = {},
): Promise<Desk> {
  const dir = mkdtempSync(join(tmpdir(), 'bot-desk-'));
  const sandbox = await startSandbox({ port: 0, host: '127.0.0.1', control: true, seed: 1, quiet: true });
  const ld = await startLocalDiscord({ port: 0 });
  const port = await freePort();
  const env: Record<string, string> = {
    GATEWAY_BASE_URL: sandbox.url,
    GATEWAY_API_KEY: API_KEY,
    DISCORD_TOKEN: ld.token,
    DISCORD_APP_ID: ld.applicationId,
    DISCORD_GUILD_ID: ld.guildId,
    DISCORD_API_URL: ld.apiUrl,
    WEBHOOK_PORT: String(port),
    STORE_URL: `sqlite://${join(dir, 'bot.sqlite')}`,
    LOG_LEVEL: 'debug',
    ...(opts.webhooks ? { WEBHOOK_PUBLIC_URL: `http://127.0.0.1:${port}` } : {}),
    ...opts.env,
  };
  const logs: string[] = [];
  const config = parseConfig(env);
  const boot = () =>
    startBot(config, {
      logger: createLogger({ level: 'debug', secrets: [API_KEY, ld.token], write: (l) => logs.push(l) }),
      pollIntervalMs: 250,
    });
  let bot = await boot();
  await until('commands registered', () => ld.commands(ld.guildId).length > 0, { timeoutMs: 15_000 });
  if (opts.betRole !== false) await setBetRole(ld);
  return {
    sandbox,
    ld,
    get bot() {
      return bot;
    },
    logs,
    env,
    async restart() {
      await bot.stop();
      bot = await boot();
    },
    async close() {
      await bot.stop().catch(() => undefined);
      await ld.close();
      await sandbox.close();
      rmSync(dir, { recursive: true, force: true });
    },
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
  const events = await catalog.loadEvents(upcomingWindow(Date.now()));
  for (const event of events.filter((e) => e.status === 'prematch' && (e.books ?? []).includes('bookie_a'))) {
    const card = await catalog.loadCard(event.event_id, 'bookie_a');
    if (card.bound && card.market_ref_betting_enabled && card.markets.some((m) => bettable(m).length > 0)) {
      return { event, card };
    }
  }
  return undefined;
}
