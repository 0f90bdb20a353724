import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BetRecordRepo } from '../../src/bot/betting/bet-records.js';
import { bettable } from '../../src/bot/model/markets.js';
import type { Event } from '../../src/gateway/index.js';
import { bettableBookieACard, type Desk, runCommand, startDesk } from '../support/bot-desk.js';
import { until } from '../support/wait.js';

let desk: Desk;
let event: Event;
let refs: string[];

beforeAll(async () => {
  desk = await startDesk({ webhooks: true });
  const found = await bettableBookieACard(desk);
  if (!found) throw new Error('no bettable bookie_a card in the sandbox');
  event = found.event;
  refs = found.card.markets.flatMap((m) => bettable(m)).map((s) => s.market_ref);
});
afterAll(async () => {
  await desk?.close();
});

const sandbox = (path: string, body: unknown) =>
  fetch(`${desk.sandbox.url}/_sandbox${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
const gatewayBets = async () =>
  ((await (await fetch(`${desk.sandbox.url}/_sandbox/state`)).json()) as { bets: unknown[] }).bets.length;

/** A slip as /bet makes it, posted in #bets by the bot. */
async function slipFor(stakeCents: number, ref = refs[0] as string) {
  const ctx = desk.bot.context;
  const slip = await ctx.slipFactory.prepareSlip({
    guildId: desk.ld.guildId,
    channelId: desk.ld.channelIds.bets,
    userId: desk.ld.users.bettor.id,
    epk: event.event_id,
    bookie: 'bookie_a',
    marketRef: ref,
    stakeCents,
  });
  const messageId = await ctx.poster.post(desk.ld.channelIds.bets, { content: 'slip', embeds: [], components: [] });
  await ctx.placement.attachMessage(slip.slipId, desk.ld.channelIds.bets, messageId);
  return { slip, where: { channelId: desk.ld.channelIds.bets, messageId } };
}

const title = (id: string) => desk.ld.message(id)?.embeds[0]?.title ?? '';

describe('the money path against the sandbox and the local Discord', () => {
  it('refuses sub-cent stakes typed into /bet (1e-9, 10.000000001) with what to enter, and stores no slip', async () => {
    for (const stake of [1e-9, 10.000000001]) {
      const options = { event: event.event_id, bookie: 'bookie_a', market: 'any', selection: refs[0] as string, stake };
      const { reply } = await runCommand(desk, 'bet', options);
      expect(`${reply.content ?? ''}${JSON.stringify(reply.embeds)}`).toMatch(/whole cents/);
    }
    expect(await desk.bot.store.query('SELECT slip_id FROM slips')).toEqual([]);
  });

  it('refuses a slip request whose stake is not whole cents, and stores no slip', async () => {
    await expect(slipFor(1000.5)).rejects.toThrow(/whole cents/);
    expect(await desk.bot.store.query('SELECT slip_id FROM slips')).toEqual([]);
  });

  it('refuses a Confirm whose message is not the slip’s, so no other message is overwritten', async () => {
    const { slip } = await slipFor(200);
    const other = await desk.bot.context.poster.post(desk.ld.channelIds.bets, {
      content: 'someone else’s receipt',
      embeds: [],
      components: [],
    });
    const before = await gatewayBets();
    const r = await desk.bot.context.placement.confirm(slip.slipId, desk.ld.users.bettor.id, {
      channelId: desk.ld.channelIds.bets,
      messageId: other,
    });
    expect(r.kind).toBe('wrong_message');
    expect(desk.ld.message(other)?.content).toBe('someone else’s receipt');
    expect(await gatewayBets()).toBe(before);
  });

  it('leaves the slip confirmable when the price check fails before anything is sent', async () => {
    const { slip, where } = await slipFor(300);
    await sandbox('/faults', { errorRates: { '/v3/price_check': 1 } });
    try {
      await expect(desk.bot.context.placement.confirm(slip.slipId, desk.ld.users.bettor.id, where)).rejects.toThrow(
        /Nothing was placed and the slip is still open/,
      );
    } finally {
      await sandbox('/faults', {});
    }
    expect(await new BetRecordRepo(desk.bot.store).bySlip(slip.slipId)).toBeUndefined();
    const again = await desk.bot.context.placement.confirm(slip.slipId, desk.ld.users.bettor.id, where);
    expect(again.kind).toBe('recorded');
    await until('the result of the retried Confirm', () => /^Bet placed|^Bet not placed/.test(title(where.messageId)), {
      timeoutMs: 15_000,
    });
  });

  it('retries a receipt edit Discord refuses with 5xx until it lands, without a restart', async () => {
    const { slip, where } = await slipFor(400, refs[1] ?? refs[0]);
    desk.ld.faults.inject({ method: 'PATCH', path: `/messages/${where.messageId}`, status: 502, times: 6 });
    const r = await desk.bot.context.placement.confirm(slip.slipId, desk.ld.users.bettor.id, where);
    expect(r.kind).toBe('recorded');
    await until('the receipt after the 5xx', () => /^Bet placed|^Bet not placed/.test(title(where.messageId)), {
      timeoutMs: 30_000,
    });
    // The outbox marks the row done once Discord's answer to the edit is back, a moment after the edit shows.
    const outboxRow = async () =>
      (
        await desk.bot.store.query<{ state: string; last_error: string | null }>(
          'SELECT state, last_error FROM outbox WHERE message_id = ?',
          where.messageId,
        )
      )[0];
    await until('the outbox row done', async () => (await outboxRow())?.state === 'done', {
      timeoutMs: 10_000,
    });
    const rows = [await outboxRow()];
    // Discord's client gave up on its own retries at least once; the outbox tried again later.
    expect(rows[0]?.last_error).toMatch(/502|Bad Gateway|Internal|error/i);
  });

  it('posts a create resent with the same nonce once (a crash between Discord’s answer and the record)', async () => {
    const poster = desk.bot.context.poster;
    const view = { content: 'once', embeds: [], components: [] };
    const a = await poster.post(desk.ld.channelIds.results, view, 'nonce-crash-1');
    const b = await poster.post(desk.ld.channelIds.results, view, 'nonce-crash-1');
    expect(b).toBe(a);
    expect(desk.ld.messages(desk.ld.channelIds.results).filter((m) => m.content === 'once')).toHaveLength(1);
  });
});
