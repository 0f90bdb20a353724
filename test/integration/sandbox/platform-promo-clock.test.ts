// The account-promo fixtures hold at any sandbox time: the sandbox clock starts at an hour when the first
// upcoming events start within minutes, and is then moved on by the control route only.
import { afterEach, describe, expect, it } from 'vitest';
import { ALPHA, advance, BRAVO, get, post, type Sandbox, start } from './platform-helpers.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** Three events start at 19:45 UTC on this day (seed 1): cards built on them went five sandbox minutes later. */
const EVENTS_AT_19_45 = new Date('2026-11-25T19:40:00Z');

let sb: Sandbox | undefined;
afterEach(async () => {
  await sb?.close();
  sb = undefined;
});

// biome-ignore lint/suspicious/noExplicitAny: promo rows are read field by field
const listed = async (key: string): Promise<any[]> => (await get(sb!.url, '/v3/account_promos', key)).body.promos;

/** The cards DESIGN.md promises alpha's bookie_c account: a placeable sports single, an uncaptured one, a race boost. */
// biome-ignore lint/suspicious/noExplicitAny: promo rows are read field by field
function promisedCards(promos: any[]) {
  const singles = promos.filter((p) => p.kind === 'sports' && p.promo === 'bet_boost' && p.voucher_type === 'single');
  return {
    placeable: singles.filter((p) => p.placeable_by_id && p.bookie === 'bookie_c'),
    uncaptured: singles.filter((p) => !p.placeable_by_id && p.boosted_odds === undefined),
    racing: promos.filter((p) => p.kind === 'racing' && p.promo === 'bet_boost' && p.placeable_by_id),
  };
}

describe('account promos at any sandbox time', () => {
  it('still lists placeable, uncaptured and racing boost cards as the sandbox clock runs on', async () => {
    sb = await start({ speed: 1, start: EVENTS_AT_19_45 });
    await listed(ALPHA); // the cards are dealt on first use
    for (const step of [10 * MINUTE, 3 * HOUR, 20 * HOUR, 2 * 24 * HOUR]) {
      expect((await advance(sb.url, step)).status).toBe(200);
      const cards = promisedCards(await listed(ALPHA));
      const at = new Date(sb.sb.clock.nowMs()).toISOString();
      expect(cards.placeable.length, `placeable sports cards at ${at}`).toBeGreaterThanOrEqual(2);
      expect(cards.uncaptured.length, `uncaptured sports cards at ${at}`).toBeGreaterThanOrEqual(1);
      expect(cards.racing.length, `racing boost cards at ${at}`).toBeGreaterThanOrEqual(1);
      expect(promisedCards(await listed(BRAVO)).placeable.length, `bravo's cards at ${at}`).toBeGreaterThanOrEqual(2);
    }
  });

  it('puts a card whose event has started on a later fixture under a new promo_id', async () => {
    sb = await start({ speed: 1, start: EVENTS_AT_19_45 });
    const before = promisedCards(await listed(ALPHA)).placeable[0];
    const event = sb.sb.world.findEvent(before.epk)!;
    expect((await advance(sb.url, event.startMs - sb.sb.clock.nowMs() + MINUTE)).status).toBe(200);
    const after = await listed(ALPHA);
    expect(after.some((p) => p.promo_id === before.promo_id)).toBe(false);
    const replacement = after.find((p) => p.promo_id > 6000 && p.kind === 'sports');
    expect(replacement).toMatchObject({ bookie: 'bookie_c', voucher_type: 'single', placeable_by_id: true });
    expect(sb.sb.world.findEvent(replacement.epk)!.startMs).toBeGreaterThan(sb.sb.clock.nowMs());
  });

  it('keeps which cards were replaced in a snapshot document, so a restore deals no second replacement', async () => {
    sb = await start({ speed: 1, start: EVENTS_AT_19_45 });
    const first = promisedCards(await listed(ALPHA)).placeable[0];
    await advance(sb.url, sb.sb.world.findEvent(first.epk)!.startMs - sb.sb.clock.nowMs() + MINUTE);
    const ids = (await listed(ALPHA)).map((p) => p.promo_id);
    const { document } = (await post(sb.url, '/_sandbox/snapshot', undefined, { document: true })).body;
    await sb.close();
    sb = await start({ speed: 1, start: EVENTS_AT_19_45 });
    expect((await post(sb.url, '/_sandbox/restore', undefined, { document })).status).toBe(200);
    expect((await listed(ALPHA)).map((p) => p.promo_id)).toEqual(ids);
  });

  it('deals cards only on events far enough ahead to outlive a test run at speed 50', async () => {
    sb = await start({ speed: 1, start: EVENTS_AT_19_45 });
    const now = sb.sb.clock.nowMs();
    for (const p of (await listed(ALPHA)).filter((x) => x.promo === 'bet_boost' && x.epk)) {
      const startMs = p.kind === 'racing' ? raceStart(p.epk) : sb.sb.world.findEvent(p.epk)!.startMs;
      expect(startMs - now, `${p.label} starts too soon`).toBeGreaterThanOrEqual(HOUR);
    }
  });
});

function raceStart(key: string): number {
  const [track, num, type, country, date] = key.split('/') as [string, string, string, string, string];
  return sb!.sb.world.race(track, Number(num), type, date, country)!.startMs;
}
