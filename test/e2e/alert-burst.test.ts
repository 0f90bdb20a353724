// One member's alert burst never silences the desk (issue 43, item 5; decision 1960): with the local Discord holding
// the bets channel to Discord's 5 new messages per 5 s, 75 alerts in one burst while another member bets. The
// member's receipt is edited in at once, and every alert is posted once or counted once in the burst's summary,
// as the local Discord recorded them (E2E_STORE=postgres: on PostgreSQL).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningBot } from '../../src/bot/index.js';
import { betSlip, messageMatching, newTrail, pickEvent, press } from '../support/flows.js';
import { type Desk, startDesk } from '../support/harness.js';
import { customIdsOf, textOf } from '../support/messages.js';
import { until } from '../support/wait.js';
import { alerts, BOOKS, pickWatched, watchCommand, watchSteps } from '../support/watch-flows.js';

const round2 = (x: number) => Math.round(x * 100) / 100;
const WATCHES = 25;

describe('an alert burst in a channel limited as Discord limits it', () => {
  let desk: Desk<RunningBot>;

  beforeAll(async () => {
    desk = await startDesk<RunningBot>({
      sandboxClock: true,
      env: { WATCH_TICK_SECONDS: '0.2', WATCH_FALLBACK_SECONDS: '20' },
    });
  }, 60_000);
  afterAll(() => desk?.close());

  const { settled, nextScrape } = watchSteps(() => desk);

  it("75 alerts at once: another member's receipt is edited within 5 s, each alert posted or summarised once", async () => {
    const channel = desk.ld.channelIds.bets;
    const ann = desk.ld.users.bettor;
    const mallory = desk.ld.addMember('mallory');
    desk.ld.setMemberRoles(mallory.id, [desk.ld.roleIds.bettor]);

    // Ann's 25 price watches on one selection, at any of its three books, all above today's prices.
    const w = pickWatched(desk, 0, 1.2);
    const base = round2(Math.max(...Object.values(w.prices)) * 1.1);
    for (let i = 0; i < WATCHES; i++) {
      const reply = await watchCommand(desk, ann, 'price', {
        event: w.epk,
        market: w.market,
        selection: w.slug,
        target: round2(base + i * 0.01),
      });
      expect(reply).toMatch(/Watching/);
    }
    await settled(w, BOOKS, 0);
    expect(alerts(desk, /^Price alert/)).toHaveLength(0);

    // Every book moves past all 25 targets at the next scrape: 3 books × 25 watches, one burst of 75 alerts.
    let scrapeAt = '';
    for (const bookie of BOOKS) {
      const move = await desk.control.movePrice({
        bookie,
        epk: w.epk,
        market: w.market,
        selection: w.slug,
        price: round2(base + 1),
      });
      scrapeAt = move.move.scrape_at;
    }
    await nextScrape(scrapeAt);
    const store = desk.bot.store;
    await until(
      'the 75 alerts recorded',
      async () => {
        const rows = await store.query<{ n: number }>(
          'SELECT COUNT(*) AS n FROM watch_alerts WHERE channel_id = ?',
          channel,
        );
        return Number(rows[0]?.n) >= 3 * WATCHES ? true : undefined;
      },
      { timeoutMs: 30_000, everyMs: 50 },
    );

    // Mallory bets while the burst is being posted: her receipt is edited in within 5 s of her Confirm.
    const trail = newTrail();
    const { slip } = await betSlip(desk, trail, { user: mallory, sel: await pickEvent(desk), stake: 5 });
    const betsBefore = (await desk.control.state()).bets.length;
    const pressedAt = performance.now();
    await press(desk, trail, mallory, slip, /^Confirm$/);
    await messageMatching(desk, slip, /Bet placed ✅/, 5_000);
    expect(performance.now() - pressedAt).toBeLessThan(5_000);
    expect((await desk.control.state()).bets.slice(betsBefore)).toHaveLength(1);

    // Every alert is either posted once (its Bet button's alert id) or counted in a summary, never both or twice.
    const posted = () => alerts(desk, /^Price alert/, channel);
    const summarised = () =>
      alerts(desk, /more alerts? on /, channel).reduce(
        (sum, m) => sum + Number(/^(\d+) more alerts?/.exec(m.embeds?.[0]?.title ?? '')?.[1] ?? 0),
        0,
      );
    await until(
      'every alert posted or summarised',
      () => (posted().length + summarised() >= 3 * WATCHES ? true : undefined),
      {
        timeoutMs: 60_000,
        seen: () =>
          `${posted().length} posted, ${summarised()} summarised, ${JSON.stringify(desk.ld.postCounts(channel))}`,
      },
    );
    await desk.bot.outbox.idle();
    await settled(w, BOOKS, Date.parse((await desk.control.state()).now) - 1_000);
    // The local Discord's record against the bot's: each alert row sent is one message there (no message without
    // its row, none twice), each folded row is counted in a summary, and together they are the 75 alerts.
    const rows = await store.query<{ state: string; message_id: string | null }>(
      "SELECT state, message_id FROM outbox WHERE outbox_key LIKE 'create:watch:%'",
    );
    const sent = rows.filter((r) => r.state === 'done').map((r) => r.message_id);
    const folded = rows.filter((r) => r.state === 'folded');
    expect(rows).toHaveLength(3 * WATCHES);
    expect(sent.length + folded.length).toBe(3 * WATCHES);
    expect(
      posted()
        .map((m) => m.id)
        .sort(),
    ).toEqual([...sent].sort());
    expect(summarised()).toBe(folded.length);
    const ids = posted().flatMap((m) => customIdsOf(m).filter((id) => id.includes(':watch:bet:')));
    expect(new Set(ids).size).toBe(ids.length);
    expect(
      alerts(desk, /more alerts? on /, channel)
        .map(textOf)
        .join('\n'),
    ).toContain('/watch list');
  }, 180_000);
});
