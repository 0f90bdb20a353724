import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findSecrets } from '../chaos/secrets.js';
import {
  type BettableSelection,
  betSlip,
  current,
  messageMatching,
  newTrail,
  pickEvent,
  press,
} from '../support/flows.js';
import { type Desk, startDesk } from '../support/harness.js';
import { ACK_DEADLINE_MS, responseMatching, textOf } from '../support/messages.js';
import { until } from '../support/wait.js';

/** The bet flow with WEBHOOK_PUBLIC_URL set: results come by signed webhook (and the poller as backup). */
describe('betting end to end, webhook path', () => {
  let desk: Desk;
  let sels: BettableSelection[];

  beforeAll(async () => {
    desk = await startDesk({ webhooks: true, env: { SETTLEMENT_INTERVAL_SECONDS: '1' } });
    sels = [await pickEvent(desk, 'nba', 0), await pickEvent(desk, 'nba', 1), await pickEvent(desk, 'nba', 2)];
  }, 60_000);
  afterAll(() => desk?.close());

  const betsAt = async (epk: string) =>
    (await desk.control.state()).bets.filter((b) => JSON.stringify(b.bet).includes(epk));

  it('slip, Confirm, submitted, result edited in, then one settlement notice in the results channel', async () => {
    const trail = newTrail();
    const { bettor } = desk.ld.users;
    const sel = sels[0]!;
    await configureResultsChannel(desk, trail);
    const { slip } = await betSlip(desk, trail, { user: bettor, sel, stake: 5 });
    const shown = textOf(slip);
    expect(slip.visibleTo, 'the slip is posted publicly in the channel').toBeNull();
    expect(shown).toContain('Bet slip');
    expect(shown).toContain('bookie_a');
    expect(shown).toMatch(/Potential return/);
    expect(shown).toMatch(/Confirm/);
    expect(shown).toMatch(/Cancel/);

    const confirm = await press(desk, trail, bettor, slip, /^Confirm$/);
    await messageMatching(desk, slip, /Bet submitted|Bet placed/);
    const placed = await messageMatching(desk, slip, /Bet placed ✅/, 20_000);
    expect(textOf(placed)).toMatch(/Bet id/);
    expect(placed.components ?? []).toEqual([]);
    void confirm;
    const bets = await betsAt(sel.epk);
    expect(bets).toHaveLength(1);
    expect(textOf(placed)).toContain(bets[0]!.bet.bet_id);
    // The result came by the signed webhook to the bot's receiver (the poller is only the backup).
    const [job] = await desk.bot.store.query<{ correlation_id: string }>(
      "SELECT correlation_id FROM jobs WHERE kind = 'bet' ORDER BY created_at DESC LIMIT 1",
    );
    const delivery = (await desk.control.state()).webhookDeliveries.find(
      (d) => d.correlation_id === job?.correlation_id,
    );
    expect(delivery?.url).toBe(`${desk.bot.receiverUrl}/webhooks/gateway`);
    expect(delivery?.state).toBe('delivered');

    // Settle the event at the sandbox: the watcher announces it once in the results channel.
    await desk.control.settle(sel.epk);
    const resultsChannel = desk.ld.channelIds.results;
    const notice = await desk.ld.waitForMessage(
      resultsChannel,
      (m) => textOf(m).includes(bets[0]!.bet.bet_id) || /settled|won|lost|void/i.test(textOf(m)),
      30_000,
    );
    expect(textOf(notice)).toMatch(/won|lost|void|settled/i);
    await new Promise((r) => setTimeout(r, 2500)); // two more watcher passes: still one notice
    const notices = desk.ld
      .messages(resultsChannel)
      .filter((m) => textOf(m).includes(bets[0]!.bet.bet_id) || m.id === notice.id);
    expect(notices).toHaveLength(1);
    expect(trail.acks.every((ms) => ms < ACK_DEADLINE_MS)).toBe(true);
  }, 90_000);

  it('Cancel closes the slip and places nothing', async () => {
    const trail = newTrail();
    const { bettor } = desk.ld.users;
    const sel = sels[1]!;
    const before = (await betsAt(sel.epk)).length;
    const { slip } = await betSlip(desk, trail, { user: bettor, sel, stake: 2 });
    await press(desk, trail, bettor, slip, /^Cancel$/);
    const closed = await messageMatching(desk, slip, /Cancelled\. Nothing was placed/);
    expect(closed.components ?? []).toEqual([]);
    expect((await betsAt(sel.epk)).length).toBe(before);
    expect(trail.acks.every((ms) => ms < ACK_DEADLINE_MS)).toBe(true);
  }, 60_000);

  it('refuses Confirm from someone other than the slip owner, and the slip stays open for its owner', async () => {
    const trail = newTrail();
    const { bettor, admin } = desk.ld.users;
    const sel = sels[1]!;
    const before = (await betsAt(sel.epk)).length;
    const { slip } = await betSlip(desk, trail, { user: bettor, sel, stake: 3 });
    const intruder = await press(desk, trail, admin, slip, /^Confirm$/);
    const refusal = await responseMatching(intruder, /Only <@\d+> can confirm/);
    expect(refusal.flags! & 64).toBe(64); // ephemeral: only the intruder sees it
    expect(textOf(current(desk, slip))).toContain('Bet slip');
    expect((await betsAt(sel.epk)).length).toBe(before);
    // The owner can still confirm it.
    await press(desk, trail, bettor, current(desk, slip), /^Confirm$/);
    await messageMatching(desk, slip, /Bet placed|Bet not placed/, 20_000);
    expect((await betsAt(sel.epk)).length).toBe(before + 1);
    expect(trail.acks.every((ms) => ms < ACK_DEADLINE_MS)).toBe(true);
  }, 60_000);

  it('a double Confirm places exactly one bet at the gateway', async () => {
    const trail = newTrail();
    const { bettor } = desk.ld.users;
    const sel = sels[2]!; // sels[0] was settled above
    const before = (await betsAt(sel.epk)).length;
    const jobsBefore = (await desk.control.state()).jobs.length;
    const { slip } = await betSlip(desk, trail, { user: bettor, sel, stake: 1 });
    const [first, second] = await Promise.all([
      press(desk, trail, bettor, slip, /^Confirm$/),
      press(desk, trail, bettor, slip, /^Confirm$/),
    ]);
    await messageMatching(desk, slip, /Bet placed|Bet not placed/, 20_000);
    // One of the two clicks was told the slip is already taken.
    const loser = await until('the losing click to be answered', () => {
      const texts = [first, second].map((h) =>
        h
          .responses()
          .map((m) => textOf(m))
          .join(' '),
      );
      return texts.find((t) => /already confirmed/.test(t));
    });
    expect(loser).toMatch(/already confirmed/);
    const state = await desk.control.state();
    expect(state.bets.filter((b) => JSON.stringify(b.bet).includes(sel.epk)).length).toBe(before + 1);
    // One place_bet job (plus price checks) — never a second placement.
    expect(state.jobs.length).toBeGreaterThan(jobsBefore);
    expect(trail.acks.every((ms) => ms < ACK_DEADLINE_MS)).toBe(true);
  }, 60_000);

  it('refuses a stake over the per-bet limit with a message that says the limit and what to do', async () => {
    const trail = newTrail();
    const handle = await desk.ld.sendCommand({
      user: desk.ld.users.bettor,
      channelId: desk.ld.channelIds.bets,
      name: 'bet',
      options: {
        event: sels[0]!.epk,
        bookie: 'bookie_a',
        market: sels[0]!.market,
        selection: sels[0]!.marketRef,
        stake: 1000,
      },
    });
    trail.acks.push((await handle.acknowledged).ms);
    const reply = await responseMatching(handle, /limit/);
    expect(textOf(reply)).toMatch(/\$1,?000\.00 is above this server's per-bet limit of \$100\.00/);
    expect(textOf(reply)).toMatch(/Lower it/);
    expect(reply.flags! & 64).toBe(64);
    expect(trail.acks.every((ms) => ms < ACK_DEADLINE_MS)).toBe(true);
  }, 30_000);

  it('never shows the API key or the bot token in any message or log line', () => {
    const texts = Object.values(desk.ld.channelIds).flatMap((c) => desk.ld.messages(c).map((m) => JSON.stringify(m)));
    expect(texts.length).toBeGreaterThan(0);
    expect(findSecrets({ messages: texts, logs: desk.logs.lines }, desk.secrets)).toEqual([]);
  });
});

/** When the bot has a /settings command with a results channel, the admin points it at #results first. */
async function configureResultsChannel(desk: Desk, trail: { acks: number[] }): Promise<void> {
  const settings = desk.ld.commands().find((c) => c.name === 'settings');
  if (!settings) return;
  // The results channel is a channel option named like "results", or the channel option of a subcommand so named.
  const walk = (defs: unknown[], path: string[]): { path: string[]; option: string } | undefined => {
    for (const d of defs as Array<{ type: number; name: string; options?: unknown[] }>) {
      const named = /result/i.test(d.name) || path.some((p) => /result/i.test(p));
      if (d.type === 7 && named) return { path, option: d.name };
      if ((d.type === 1 || d.type === 2) && d.options) {
        const found = walk(d.options, [...path, d.name]);
        if (found) return found;
      }
    }
    return undefined;
  };
  const found = walk((settings.options ?? []) as unknown[], []);
  if (!found) return;
  const handle = await desk.ld.sendCommand({
    user: desk.ld.users.admin,
    channelId: desk.ld.channelIds.bets,
    name: 'settings',
    options: { [found.option]: desk.ld.channelIds.results },
    ...(found.path.length === 2 ? { subcommandGroup: found.path[0]!, subcommand: found.path[1]! } : {}),
    ...(found.path.length === 1 ? { subcommand: found.path[0]! } : {}),
  });
  trail.acks.push((await handle.acknowledged).ms);
  await until('the settings to be answered', () => handle.responses().length > 0);
}
