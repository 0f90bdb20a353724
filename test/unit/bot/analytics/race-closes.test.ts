import { describe, expect, it } from 'vitest';
import type { FairClose } from '../../../../src/bot/analytics/facts.js';
import { type OpenMulti, RaceCloseCapture } from '../../../../src/bot/analytics/race-closes.js';
import type { BookWinPrices } from '../../../../src/bot/model/multi-fair.js';
import type { RaceKey } from '../../../../src/bot/model/racing-bet.js';

const MIN = 60_000;
const RACE: RaceKey = { track: 'Flemington', raceNum: 3, raceType: '(R)', date: '2026-11-16' };

/** Alpha 2.00, Bravo 4.00, Charlie 4.00 at a book without margin: win chances 1/2, 1/4, 1/4. */
const noMargin = (): BookWinPrices => ({
  bookie: 'bookie_a',
  win: new Map([
    ['Alpha', 2],
    ['Bravo', 4],
    ['Charlie', 4],
  ]),
});

function harness(multis: OpenMulti[], reads: Array<BookWinPrices[] | Error>) {
  let now = 0;
  const asked: RaceKey[] = [];
  const closes: Array<{ betId: string; odds: number; market: FairClose; at: number }> = [];
  const capture = new RaceCloseCapture({
    openMultis: async () => multis,
    readRace: async (race) => {
      asked.push(race);
      const next = reads.shift() ?? [noMargin()];
      if (next instanceof Error) throw next;
      return next;
    },
    recordClose: (betId, odds, market, at) => void closes.push({ betId, odds, market, at }),
    now: () => now,
    everyMs: 2 * MIN,
  });
  return { capture, asked, closes, at: (t: number) => (now = t) };
}

const multi = (betId: string, legs: OpenMulti['legs'], race: RaceKey = RACE): OpenMulti => ({
  betId,
  race,
  legs,
  method: 'multiplicative',
});

describe("a multi's close at the race's close", () => {
  it('is the Harville chance of its legs from the books’ no-vig win chances, as the slip prices it', async () => {
    // Alpha wins (1/2), then Bravo second among the rest (1/4 ÷ 1/2): 1/4, a fair price of 4.00.
    const h = harness(
      [
        multi('m1', [
          { runner: 'Alpha', position: 'win' },
          { runner: 'Bravo', position: 'top2' },
        ]),
      ],
      [],
    );
    h.at(10 * MIN);
    expect(await h.capture.tick()).toEqual({ read: 1, recorded: 1, failed: 0 });
    expect(h.closes).toHaveLength(1);
    expect(h.closes[0]?.odds).toBeCloseTo(4, 12);
    expect(h.closes[0]?.market).toEqual({
      kind: 'fair',
      probability: expect.closeTo(0.25, 12),
      books: ['bookie_a'],
      method: 'multiplicative',
    });
    expect(h.closes[0]?.at).toBe(10 * MIN);
  });

  it('reads each race once a beat for all its multis, and a later read replaces the close', async () => {
    const other = { ...RACE, raceNum: 4 };
    const h = harness(
      [
        multi('m1', [
          { runner: 'Alpha', position: 'win' },
          { runner: 'Bravo', position: 'top2' },
        ]),
        multi('m2', [
          { runner: 'Charlie', position: 'top2' },
          { runner: 'Bravo', position: 'top3' },
        ]),
        multi(
          'm3',
          [
            { runner: 'Alpha', position: 'top2' },
            { runner: 'Bravo', position: 'top2' },
          ],
          other,
        ),
      ],
      [],
    );
    h.at(0);
    expect(await h.capture.tick()).toEqual({ read: 2, recorded: 3, failed: 0 });
    h.at(2 * MIN - 1);
    expect((await h.capture.tick()).read).toBe(0);
    h.at(2 * MIN);
    expect((await h.capture.tick()).read).toBe(2);
    expect(h.asked.map((r) => r.raceNum)).toEqual([3, 4, 3, 4]);
    expect(h.closes.filter((c) => c.betId === 'm1').map((c) => c.at)).toEqual([0, 2 * MIN]);
  });

  it('keeps the close it had when the books no longer price a leg’s runner, and retries a failed read', async () => {
    const scratched: BookWinPrices = {
      bookie: 'bookie_a',
      win: new Map([
        ['Alpha', 1.5],
        ['Charlie', 3],
      ]),
    };
    const h = harness(
      [
        multi('m1', [
          { runner: 'Alpha', position: 'win' },
          { runner: 'Bravo', position: 'top2' },
        ]),
      ],
      [new Error('price check timed out'), [scratched]],
    );
    h.at(0);
    expect(await h.capture.tick()).toEqual({ read: 0, recorded: 0, failed: 1 });
    h.at(1_000);
    expect(await h.capture.tick()).toEqual({ read: 1, recorded: 0, failed: 0 });
    expect(h.closes).toEqual([]);
  });

  it('reads no race without an open multi', async () => {
    const h = harness([], []);
    expect(await h.capture.tick()).toEqual({ read: 0, recorded: 0, failed: 0 });
    expect(h.asked).toEqual([]);
  });
});
