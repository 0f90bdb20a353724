import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { RACE_READ_USABLE_MS, RaceReads } from '../../../src/bot/betting/race-reads.js';
import type { RaceKey } from '../../../src/bot/model/racing-bet.js';
import { GatewayClient } from '../../../src/gateway/index.js';
import { type RunningSandbox, startSandbox } from '../../../src/sandbox/index.js';
import { localDay, raceStartMs, TRACKS } from '../../../src/sandbox/world/racing.js';
import { API_KEY } from '../../support/bot-desk.js';

/**
 * The race reads a desk holds (decision 2050), against the sandbox: a multi's slip is priced from a read the leg
 * options made moments before, and the race is read again only at the books whose read is too old.
 */
let sandbox: RunningSandbox;
let client: GatewayClient;
let race: RaceKey;
let books: Array<{ session_id: string; bookie: string }>;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, host: '127.0.0.1', control: true, seed: 1, quiet: true });
  client = new GatewayClient({ baseUrl: sandbox.url, apiKey: API_KEY, poller: { intervalMs: 100 } });
  const first = new Map<string, { session_id: string; bookie: string }>();
  for (const s of await client.sessions.list()) {
    if (s.active && !first.has(s.bookie)) first.set(s.bookie, { session_id: s.session_id, bookie: s.bookie });
  }
  books = [...first.values()];
  const def = TRACKS.find((t) => t.race_type === 'R');
  if (!def) throw new Error('no thoroughbred track');
  const now = Date.now();
  const date = localDay(def, now + 86_400_000);
  const n = [1, 2, 3, 4, 5, 6, 7, 8].find((k) => raceStartMs(def, k, date) > now + 3_600_000) ?? 8;
  race = { track: def.track, raceNum: n, raceType: '(R)', date };
});
afterAll(async () => {
  await client?.close();
  await sandbox?.close();
});

describe('race reads', () => {
  /** A desk's memory on a clock the test moves, counting the price checks it sends. */
  function memory() {
    const clock = { t: Date.parse('2026-11-28T10:00:00Z') };
    const reads = new RaceReads();
    const ask = (maxAgeMs: number) => ({
      gateway: client,
      now: () => clock.t,
      callbackUrl: undefined,
      waitMs: 10_000,
      maxAgeMs,
    });
    return { clock, reads, ask };
  }

  it('serves a read younger than the age asked from memory, and reads the race again once it is older', async () => {
    const { clock, reads, ask } = memory();
    const checks = vi.spyOn(client.priceChecks, 'racing');
    try {
      const first = await reads.read(race, books, ask(RACE_READ_USABLE_MS));
      expect(first.map((h) => h.read.win.size > 0)).toEqual(books.map(() => true));
      clock.t += RACE_READ_USABLE_MS;
      const again = await reads.read(race, books, ask(RACE_READ_USABLE_MS));
      expect(checks).toHaveBeenCalledTimes(1);
      expect(again.map((h) => [h.at, h.read.bookie])).toEqual(first.map((h) => [h.at, h.read.bookie]));
      clock.t += 1;
      await reads.read(race, books, ask(RACE_READ_USABLE_MS));
      expect(checks).toHaveBeenCalledTimes(2);
    } finally {
      checks.mockRestore();
    }
  });

  it('reads only the books it holds no read of, in one price check, and answers in the sessions’ order', async () => {
    const { reads, ask } = memory();
    const [own, ...others] = books as [(typeof books)[number], ...typeof books];
    await reads.read(race, [own], ask(RACE_READ_USABLE_MS));
    const checks = vi.spyOn(client.priceChecks, 'racing');
    try {
      const all = await reads.read(race, [...others, own], ask(RACE_READ_USABLE_MS));
      expect(checks.mock.calls.map((c) => c[0].session_ids)).toEqual([others.map((s) => s.session_id)]);
      expect(all.map((h) => h.read.bookie)).toEqual([...others, own].map((s) => s.bookie));
    } finally {
      checks.mockRestore();
    }
  });

  it('shares one price check between asks of the same race made at once', async () => {
    const { reads, ask } = memory();
    const checks = vi.spyOn(client.priceChecks, 'racing');
    try {
      const [a, b] = await Promise.all([
        reads.read(race, books, ask(RACE_READ_USABLE_MS)),
        reads.read(race, books, ask(RACE_READ_USABLE_MS)),
      ]);
      expect(checks).toHaveBeenCalledTimes(1);
      expect(b.map((h) => [...h.read.win])).toEqual(a.map((h) => [...h.read.win]));
    } finally {
      checks.mockRestore();
    }
  });
});
