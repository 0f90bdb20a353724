// Issue 36: the receipt compares the selection and line a result reports as placed with the slip's. A gateway that
// placed another row (forged here through the proxy: the sandbox places the slip's bet, the bot reads an answer
// naming the other side of the handicap) is flagged loudly: the receipt, a notice to the member, the ledger.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningBot, startBot } from '../../src/bot/index.js';
import { GatewayClient } from '../../src/gateway/index.js';
import { type BettableSelection, betSlip, messageMatching, newTrail, pickEvent, press } from '../support/flows.js';
import { API_KEY, type Desk, startDesk } from '../support/harness.js';
import { textOf } from '../support/messages.js';
import { until } from '../support/wait.js';

let desk: Desk<RunningBot>;
let sel: BettableSelection & { line: number };

/** A bookie_a handicap row (with its line) of one of the first events pickEvent finds. */
async function handicapRow(): Promise<BettableSelection & { line: number }> {
  const client = new GatewayClient({ baseUrl: desk.sandbox.url, apiKey: API_KEY, poller: { now: desk.now } });
  try {
    for (let skip = 0; skip < 5; skip++) {
      const base = await pickEvent(desk, 'nba', skip);
      const card = await client.markets.get({ epk: base.epk, bookie: 'bookie_a', market: 'line' });
      const row = card.markets[0]?.selections.find((s) => s.bettable && s.market_ref && typeof s.line === 'number');
      if (row?.market_ref && typeof row.line === 'number')
        return { ...base, market: 'line', marketRef: row.market_ref, label: row.label, line: row.line };
    }
    throw new Error('no bettable line row on the first five nba cards');
  } finally {
    await client.close();
  }
}

beforeAll(async () => {
  // Poll only: every result reaches the bot through the proxy.
  desk = await startDesk<RunningBot>({
    webhooks: false,
    proxy: true,
    startBot: (config, deps) => startBot(config, { ...deps, pollIntervalMs: 250 }),
  });
  sel = await handicapRow();
}, 60_000);
afterAll(() => desk?.close());

describe('a placed selection that differs from the slip', () => {
  it('is flagged on the receipt, told to the member and written in the ledger; never passed over', async () => {
    const forgedLabel = `${sel.label.replace(/[+-][\d.]+$/, '')}${sel.line > 0 ? '-' : '+'}${Math.abs(sel.line)}`;
    desk.proxy?.forgeAnswers('/api/bet_status', (answer) => {
      const body = answer as { statuses?: { result?: Record<string, unknown> }[] };
      for (const s of body.statuses ?? []) {
        if (s.result?.success === true) Object.assign(s.result, { selection: forgedLabel, line: -sel.line });
      }
      return body;
    });
    const trail = newTrail();
    const { bettor } = desk.ld.users;
    try {
      const { slip } = await betSlip(desk, trail, { user: bettor, sel, stake: 3 });
      await press(desk, trail, bettor, slip, /^Confirm$/);
      const done = await messageMatching(desk, slip, /Bet placed|Bet not placed/, 20_000);
      expect(textOf(done)).toMatch(/Bet placed ⚠️ not as the slip showed/);
      expect(textOf(done)).toContain(`'${forgedLabel}' (line ${-sel.line > 0 ? '+' : ''}${-sel.line})`);
      expect(textOf(done)).not.toMatch(/Bet placed ✅/);

      const notice = await until('the notice to the member', () =>
        desk.ld
          .messages(desk.ld.channelIds.bets)
          .find((m) => /Placed selection differs from the slip/.test(textOf(m)) && m.id !== slip.id),
      );
      expect(notice.content).toContain(`<@${bettor.id}>`);
      expect(textOf(notice)).toContain(`not the slip's '${sel.label}'`);
    } finally {
      desk.proxy?.release();
    }

    // The sandbox placed the slip's own row; the desk holds it as placed, and its placement entry names the mismatch.
    const [record] = await desk.bot.store.query<{ placement_id: string; state: string; note: string | null }>(
      "SELECT placement_id, state, note FROM bet_records WHERE note LIKE 'placed_other:%'",
    );
    expect(record?.state).toBe('placed');
    const entry = await desk.bot.context.ledger.latest('placement', record?.placement_id ?? '');
    const signed = (x: number) => `${x > 0 ? '+' : ''}${x}`;
    expect(entry?.data.note).toBe(
      `placed_other: the book placed '${forgedLabel}' (line ${signed(-sel.line)}) in line, not the slip's '${sel.label}' (line ${signed(sel.line)}) in line`,
    );
    expect((await desk.bot.context.ledger.verify()).ok).toBe(true);
    const placed = (await desk.control.state()).bets.filter((b) => b.bet.stake === 3);
    expect(placed).toHaveLength(1);
    const selections = placed[0]?.bet.selections as { selection: string }[] | undefined;
    expect(selections?.[0]?.selection).toBe(sel.label);
  }, 90_000);
});
