// One member typing through many events must not spend the desk's card reads (decision 1610).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTOCOMPLETE_READS } from '../../src/bot/catalog/read-allowance.js';
import {
  askMarkets,
  type CardAsk,
  cardReadsAtSandbox,
  cardsOfUpcomingEvents,
  floodAutocomplete,
  openMarkets,
} from '../support/autocomplete-flood.js';
import { type Desk, startDesk } from '../support/bot-desk.js';
import { until } from '../support/wait.js';

let desk: Desk;
/** Distinct (event, book) cards nobody has read yet. */
let cards: CardAsk[];
const card = (i: number): CardAsk => cards[i] ?? { epk: '', bookie: '' };

beforeAll(async () => {
  desk = await startDesk();
  cards = await cardsOfUpcomingEvents(desk);
  expect(cards.length).toBeGreaterThan(150);
}, 60_000);
afterAll(async () => {
  await desk?.close();
});

describe("a member's autocomplete flood", () => {
  it("reads at most the member's share of cards, and a /markets after it is answered without queueing", async () => {
    // A member without the bet role types through 140 cards, 20 asks at a time.
    const flood = await floodAutocomplete(desk, 'viewer', cards.slice(0, 140));
    const markets = await openMarkets(desk, 'bettor', card(150));
    expect({ floodReads: flood.reads, queued: markets.queued, withinTenSeconds: markets.ms < 10_000 }).toEqual({
      floodReads: expect.toSatisfy((n: number) => n <= AUTOCOMPLETE_READS.perMember),
      queued: false,
      withinTenSeconds: true,
    });
  }, 120_000);

  it('once refused, offers the typed text saying to type again or open the card with /markets', async () => {
    // The viewer's allowance is spent by the flood above; a new card is not read for this ask.
    const before = cardReadsAtSandbox(desk);
    const choices = await askMarkets(desk, 'viewer', card(160), 'money');
    expect(choices).toEqual([{ name: expect.stringMatching(/card not loaded yet.*\/markets/), value: 'money' }]);
    expect(cardReadsAtSandbox(desk) - before).toBe(0);
  });

  it("leaves another member's autocomplete its own reads", async () => {
    expect(await askMarkets(desk, 'admin', card(170))).toEqual([]);
    const markets = await until(
      "the admin's card, read in the background",
      async () => {
        const c = await askMarkets(desk, 'admin', card(170));
        return c.length > 0 ? c : undefined;
      },
      { timeoutMs: 15_000 },
    );
    expect(markets[0]?.value).toBeTruthy();
  });
});
