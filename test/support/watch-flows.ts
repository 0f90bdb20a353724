// What the watch suites share: a selection every book shows, /watch through the local Discord, and the alerts
// the bot posted.
import type { APIUser } from 'discord.js';
import type { RunningBot } from '../../src/bot/index.js';
import type { BotStore } from '../../src/bot/store/index.js';
import type { LocalMessage } from '../../src/local-discord/index.js';
import { isBettable } from '../../src/sandbox/world/card-view.js';
import type { Desk } from './harness.js';
import { textOf } from './messages.js';
import { until } from './wait.js';

export const BOOKS = ['bookie_a', 'bookie_b', 'bookie_c'] as const;

/** A prematch event all three books list and bind, a named market, and a selection bettable on every card. */
export interface Watched {
  epk: string;
  market: string;
  slug: string;
  /** Each book's card price now. */
  prices: Record<string, number>;
}

/**
 * `minPrice`: every book's price at least this, so a test that shortens it by a share stays above odds of 1 (which
 * selection is first depends on the sandbox's clock, so a heavy favourite may come first at some hours).
 */
export function pickWatched(desk: Pick<Desk, 'sandbox'>, skip = 0, minPrice = 1): Watched {
  // Picked from the sandbox's world, not its API: the cards read here would spend the key's card budget the bot uses.
  const world = desk.sandbox.sb.world;
  const now = world.nowMs();
  let skipped = 0;
  for (const ev of world.allEvents()) {
    // bookie_c takes no basketball bets in the sandbox; the event starts well after the tests move the clock, and
    // inside the week the bot lists.
    if (ev.isOutright || ev.sport === 'basketball') continue;
    if (ev.startMs < now + 2 * 86_400_000 || ev.startMs > now + 6 * 86_400_000) continue;
    if (!BOOKS.every((b) => world.link(ev, b).linked)) continue;
    const rows = BOOKS.map((b) => world.card(ev, b).find((m) => m.market === 'head_to_head'));
    const sel = rows[0]?.selections.find((s) =>
      rows.every((r) => r?.selections.some((t) => t.slug === s.slug && isBettable(t))),
    );
    if (!sel) continue;
    // The whole market bettable at every book: an alert's fair price needs a complete market, and which selections a
    // book shows depends on the sandbox's clock.
    if (!rows.every((r) => r?.selections.every(isBettable))) continue;
    const prices = Object.fromEntries(
      BOOKS.map((b, i) => [
        b,
        world.cardPrice(b, ev.epk, 'head_to_head', rows[i]!.selections.find((t) => t.slug === sel.slug)!),
      ]),
    );
    if (Object.values(prices).some((p) => p < minPrice)) continue;
    if (skipped++ < skip) continue;
    return { epk: ev.epk, market: 'head_to_head', slug: sel.slug, prices };
  }
  throw new Error('no prematch event with a head-to-head selection every book shows');
}

/** /watch <subcommand> as `user` in the bets channel; the ephemeral answer's text. */
export async function watchCommand(
  desk: Pick<Desk, 'ld'>,
  user: APIUser,
  subcommand: string,
  options: Record<string, string | number | boolean>,
): Promise<string> {
  const handle = await desk.ld.sendCommand({
    user,
    channelId: desk.ld.channelIds.bets,
    name: 'watch',
    subcommand,
    options,
  });
  const reply = await until(
    `the answer to /watch ${subcommand}`,
    () => {
      const text = textOf(handle.responses().at(-1));
      return text === '' ? undefined : text;
    },
    { timeoutMs: 20_000 },
  );
  return reply;
}

/** The alerts posted in a channel whose title matches. */
export function alerts(desk: Pick<Desk, 'ld'>, title: RegExp, channelId?: string): LocalMessage[] {
  return desk.ld
    .messages(channelId ?? desk.ld.channelIds.bets)
    .filter((m) => m.embeds?.some((e) => title.test(e.title ?? '')));
}

/** Waits until the bot's watch scheduler has read the card of `bookie` at or after `since` (bot clock; 0: read at all). */
export async function cardReadSince(store: BotStore, epk: string, bookie: string, since: number): Promise<void> {
  await until(
    `the watch scheduler to read ${bookie}'s card`,
    async () => {
      const rows = await store.query<{ read_at: number }>(
        'SELECT read_at FROM watch_cards WHERE epk = ? AND bookie = ?',
        epk,
        bookie,
      );
      // A row is needed even for since 0: the first read is what a test waits for before it moves a price.
      const row = rows[0];
      return row !== undefined && Number(row.read_at) >= since ? true : undefined;
    },
    { timeoutMs: 30_000, everyMs: 50 },
  );
}

/** The sandbox's natural prices step every 5 minutes of its clock: advancing this far crosses one scrape. */
export const SCRAPE_MS = 5 * 60_000;

/** The steps every watch suite takes on a desk whose bot runs in-process with the sandbox clock. */
export function watchSteps(desk: () => Desk<RunningBot>) {
  return {
    /** Everything the scheduler does after the clock moved: the books' cards read, judged, and the outbox sent. */
    async settled(w: Watched, books: readonly string[], since: number): Promise<void> {
      const bot = desk().bot;
      for (const b of books) await cardReadSince(bot.store, w.epk, b, since);
      await bot.context.watch.idle();
      await bot.outbox.idle();
    },
    /** Moves the sandbox (and the bot's) clock past the next scrape (or a second past `scrapeAt`); the new time. */
    async nextScrape(scrapeAt?: string): Promise<number> {
      const now = Date.parse((await desk().control.state()).now);
      return desk().advance(scrapeAt ? Date.parse(scrapeAt) - now + 1_000 : SCRAPE_MS);
    },
    /** The alerts whose title matches, posted for `bookie`. */
    alertsAt(bookie: string, title: RegExp): LocalMessage[] {
      return alerts(desk(), title).filter((m) => m.embeds?.some((e) => e.fields?.some((f) => f.value === bookie)));
    },
  };
}
