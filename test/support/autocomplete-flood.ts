import { upcomingWindow } from '../../src/bot/catalog/handlers/choices.js';
import type { RunningBot } from '../../src/bot/index.js';
import type { LocalDiscord } from '../../src/local-discord/index.js';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { sportNotOffered } from '../../src/sandbox/world/books.js';
import { until } from './wait.js';

/** What a flood needs of a running desk (the e2e and the integration desks both fit). */
export interface FloodDesk {
  sandbox: RunningSandbox;
  ld: LocalDiscord;
  bot: RunningBot;
}

export interface CardAsk {
  epk: string;
  bookie: string;
}

type Member = 'viewer' | 'bettor' | 'admin';

/** Every (event, book) card of the events still to finish: distinct cards autocomplete may ask about. */
export async function cardsOfUpcomingEvents(desk: FloodDesk): Promise<CardAsk[]> {
  const events = await desk.bot.context.catalog.loadEvents(upcomingWindow(desk.bot.context.now()));
  // Only books that take bets on the event's sport: another lists it with an empty card (decision 1995), whose
  // choices say "pick another book" whichever clock the run starts at.
  return events
    .filter((e) => e.status !== 'finished')
    .flatMap((e) =>
      (e.books ?? [])
        .filter((b) => sportNotOffered(b, e.sport) === null)
        .map((bookie) => ({ epk: e.event_id, bookie })),
    );
}

/** Card reads the sandbox has counted against any key, in all. */
export function cardReadsAtSandbox(desk: FloodDesk): number {
  return desk.sandbox.sb.world.cardLimit.dump().reduce((n, [, hits]) => n + hits.length, 0);
}

/** A member types `typed` into /markets' market option with the event and book chosen; resolves with the choices. */
export function askMarkets(desk: FloodDesk, user: Member, card: CardAsk, typed = '') {
  return desk.ld.autocomplete({
    user: desk.ld.users[user],
    channelId: desk.ld.channelIds.bets,
    name: 'markets',
    options: { event: card.epk, bookie: card.bookie, market: typed },
    focused: 'market',
  }) as Promise<Array<{ name: string; value: string }>>;
}

/**
 * One member asks about every card, `parallel` asks at a time, then waits until no card read is queued or in a
 * limiter wait. Resolves with the card reads the sandbox counted meanwhile.
 */
export async function floodAutocomplete(desk: FloodDesk, user: Member, cards: CardAsk[], parallel = 20) {
  const before = cardReadsAtSandbox(desk);
  for (let i = 0; i < cards.length; i += parallel) {
    await Promise.all(cards.slice(i, i + parallel).map((c) => askMarkets(desk, user, c, 'm')));
  }
  const limiter = desk.bot.context.gateway.marketsLimiter;
  await until('the background card reads to finish', () => limiter.queued === 0 && limiter.estimateWaitMs() === 0);
  return { reads: cardReadsAtSandbox(desk) - before };
}

/** A member's /markets for one card: how long until the card showed, and whether it was queued on the way. */
export async function openMarkets(desk: FloodDesk, user: Member, card: CardAsk) {
  const started = Date.now();
  const ix = await desk.ld.sendCommand({
    user: desk.ld.users[user],
    channelId: desk.ld.channelIds.bets,
    name: 'markets',
    options: { event: card.epk, bookie: card.bookie },
  });
  await ix.acknowledged;
  await until('the /markets card', () => ix.responses().find((m) => m.embeds.length > 0), { timeoutMs: 60_000 });
  return {
    ms: Date.now() - started,
    queued: ix.responses().some((m) => /Queued behind/.test(m.content ?? '')),
  };
}
