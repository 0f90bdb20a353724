// Events the sandbox lists with at least one book, read once through the client (what the bot's users pick from).
import { GatewayClient } from '../../src/gateway/index.js';

export interface EventPick {
  epk: string;
  bookie: string;
  name: string;
  sport: string;
  /** prematch, in_play (the spec's event status). */
  status: string;
}

/** At least `count` such events, and up to `take` of them (the first ones listed). */
export async function bookedEvents(baseUrl: string, apiKey: string, count: number, take = count): Promise<EventPick[]> {
  const client = new GatewayClient({ baseUrl, apiKey });
  try {
    const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
    // Events not yet finished, with a book: the ones users ask cards for.
    const events = await client.events.all({ since: day(-1), until: day(7), limit: 500 });
    const picks = events
      .filter((e) => e.status !== 'finished' && (e.books ?? []).length > 0)
      .map((e) => ({ epk: e.event_id, bookie: e.books![0]!, name: e.name, sport: e.sport, status: e.status }));
    if (picks.length < count)
      throw new Error(`the sandbox lists ${picks.length} unfinished events with books; need ${count}`);
    return picks.slice(0, Math.max(count, take));
  } finally {
    await client.close();
  }
}
