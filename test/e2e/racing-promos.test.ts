import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BetRecordRepo } from '../../src/bot/betting/bet-records.js';
import { Reconciler } from '../../src/bot/betting/reconciler.js';
import { localDay, raceStartMs, TRACKS } from '../../src/sandbox/world/racing.js';
import { control, type Desk, startDesk } from '../support/bot-desk.js';
import { reconcilerOf } from '../support/reconcile-now.js';
import { until } from '../support/wait.js';

let desk: Desk;
/** A race that jumps well after the test: today's on its track if one is left, else tomorrow's first. */
let race: { track: string; raceType: string; value: string; raceNum: number; date: string };

beforeAll(async () => {
  desk = await startDesk({ webhooks: true });
  const now = desk.now();
  const open: (typeof race)[] = [];
  for (const def of TRACKS) {
    for (const dayOffset of [0, 1]) {
      const date = localDay(def, now + dayOffset * 86_400_000);
      for (let n = 1; n <= 8; n++) {
        const at = raceStartMs(def, n, date);
        if (at > now + 20 * 60_000)
          open.push({
            track: def.track,
            raceType: `(${def.race_type})`,
            value: `${def.track} (${def.race_type})`,
            raceNum: n,
            date,
          });
      }
    }
  }
  open.sort((a, b) => (a.date === b.date ? 0 : a.date < b.date ? -1 : 1));
  race = open[0] as typeof race;
});
afterAll(async () => {
  await desk?.close();
});

const sandboxBets = async () =>
  (
    (await (await fetch(`${desk.sandbox.url}/_sandbox/state`)).json()) as {
      bets: Array<Record<string, unknown>>;
    }
  ).bets;

const title = (id: string) => desk.ld.message(id)?.embeds[0]?.title ?? '';

/**
 * The race's runners from /bet-racing's autocomplete. The bot answers within its short autocomplete budget, with
 * no runners while the race's prices have not come back yet (a busy machine), so ask until they have.
 */
async function runnersOfRace(): Promise<string[]> {
  const { ld } = desk;
  const ask = async () => {
    const choices = (await ld.autocomplete({
      user: ld.users.bettor,
      channelId: ld.channelIds.bets,
      name: 'bet-racing',
      options: { track: race.value, race: race.raceNum, date: race.date, runner: '' },
      focused: 'runner',
    })) as Array<{ value: string }>;
    return choices.length > 0 ? choices.map((c) => c.value) : undefined;
  };
  return until(`the runners of ${race.track} R${race.raceNum}`, ask, { timeoutMs: 20_000, everyMs: 250 });
}

/** Sends /bet-racing and returns the public slip message. */
async function racingSlip(runner: string, stake: number, market = 'win') {
  const { ld } = desk;
  const ix = await ld.sendCommand({
    user: ld.users.bettor,
    channelId: ld.channelIds.bets,
    name: 'bet-racing',
    options: { track: race.value, race: race.raceNum, date: race.date, runner, market, stake, bookie: 'bookie_a' },
  });
  await ix.acknowledged;
  return until(
    'the racing slip',
    () =>
      ld
        .messages(ld.channelIds.bets)
        .find(
          (m) =>
            m.embeds[0]?.title === 'Bet slip' &&
            m.visibleTo === null &&
            JSON.stringify(m.embeds).includes(runner) &&
            control(m, 'v1:slip:confirm:') !== undefined,
        ),
    { timeoutMs: 20_000 },
  );
}

describe('racing bets through the local Discord', () => {
  it('autocompletes tracks with their race type, races of the track’s day and the race’s runners', async () => {
    const { ld } = desk;
    const tracks = (await ld.autocomplete({
      user: ld.users.bettor,
      channelId: ld.channelIds.bets,
      name: 'bet-racing',
      options: { track: 'went' },
      focused: 'track',
    })) as Array<{ name: string; value: string }>;
    expect(tracks[0]).toEqual({ name: 'Wentworth Park · greyhound', value: 'Wentworth Park (G)' });
    const races = (await ld.autocomplete({
      user: ld.users.bettor,
      channelId: ld.channelIds.bets,
      name: 'bet-racing',
      options: { track: race.value, date: race.date, race: '' },
      focused: 'race',
    })) as Array<{ name: string; value: number }>;
    expect(races[0]).toEqual({ name: `Race 1 · ${race.track} · ${race.date}`, value: 1 });
    expect((await runnersOfRace()).length).toBeGreaterThan(2);
  });

  it('places a win bet from /bet-racing: slip, Confirm, receipt, a racing record and the gateway bet', async () => {
    const { ld } = desk;
    const [runner] = await runnersOfRace();
    const slip = await racingSlip(runner as string, 3);
    expect(JSON.stringify(slip.embeds)).toContain(`${race.track} R${race.raceNum}`);
    const before = (await sandboxBets()).length;
    await ld.clickButton({
      user: ld.users.bettor,
      message: slip,
      customId: control(slip, 'v1:slip:confirm:')?.custom_id ?? '',
    });
    await until('the racing receipt', () => /^Bet placed/.test(title(slip.id)), { timeoutMs: 30_000 });
    const bets = await sandboxBets();
    expect(bets.length).toBe(before + 1);
    // The slip may show the receipt a moment before the store has it (decision 2120): wait for the store's state.
    const repo = new BetRecordRepo(desk.bot.store);
    let last: string | undefined;
    const record = await until(
      'the record placed',
      async () => {
        const [r] = await repo.recent({ guildId: ld.guildId, limit: 1 });
        last = r?.state;
        return r?.state === 'placed' ? r : undefined;
      },
      { seen: () => String(last) },
    );
    expect(record?.state).toBe('placed');
    expect(record?.payload.kind).toBe('racing');
    expect(record?.payload.racing).toMatchObject({
      track: race.track,
      raceNum: race.raceNum,
      raceType: race.raceType,
      date: race.date,
      runner,
      market: 'win',
    });
    expect(record?.stakeCents).toBe(300);
  });

  it('adopts a racing bet whose answer was lost by matching the sandbox’s transaction (event, runner, market)', async () => {
    const { ld } = desk;
    const runners = await runnersOfRace();
    const slip = await racingSlip(runners[1] as string, 4, 'place');
    await ld.clickButton({
      user: ld.users.bettor,
      message: slip,
      customId: control(slip, 'v1:slip:confirm:')?.custom_id ?? '',
    });
    await until('the racing receipt', () => /^Bet placed/.test(title(slip.id)), { timeoutMs: 30_000 });
    const { reconciler, repo } = reconcilerOf(desk.bot);
    // The slip may show the receipt a moment before the store has it (decision 2120).
    const placed = await until('the placed record', async () =>
      (await repo.recent({ guildId: ld.guildId, limit: 1 })).find((r) => r.betId),
    );
    const betId = placed?.betId;
    expect(betId).toBeTruthy();
    // As if the 202 never arrived: the record is unknown and knows no bet id.
    await desk.bot.store.query(
      "UPDATE bet_records SET state = 'unknown', bet_id = NULL WHERE placement_id = ?",
      placed?.placementId,
    );
    const report = await reconciler.run();
    expect(report.adopted).toBe(1);
    const after = await repo.get(placed?.placementId as string);
    expect(after?.state).toBe('placed');
    expect(after?.betId).toBe(betId);
  });

  it('spends a bonus token only when the session holds one worth the stake, and says so otherwise', async () => {
    const { ld } = desk;
    const runners = await runnersOfRace();
    const bettor = ld.users.bettor;
    const options = { track: race.value, race: race.raceNum, date: race.date, runner: runners[2] as string };
    const refused = await ld.sendCommand({
      user: bettor,
      channelId: ld.channelIds.bets,
      name: 'bet-racing',
      options: { ...options, market: 'win', stake: 7, bookie: 'bookie_a', use_bonus_bet: true },
    });
    await refused.acknowledged;
    const reply = await until(
      'the refusal',
      () => refused.responses().find((m) => /bonus token/.test(JSON.stringify(m.embeds) + (m.content ?? ''))),
      { timeoutMs: 15_000 },
    );
    expect(JSON.stringify(reply.embeds) + (reply.content ?? '')).toMatch(/no available bonus token worth \$7\.00/);
    const ix = await ld.sendCommand({
      user: bettor,
      channelId: ld.channelIds.bets,
      name: 'bet-racing',
      options: { ...options, market: 'win', stake: 5, bookie: 'bookie_a', use_bonus_bet: true },
    });
    await ix.acknowledged;
    const slip = await until(
      'the bonus slip',
      () =>
        ld
          .messages(ld.channelIds.bets)
          .find(
            (m) =>
              m.visibleTo === null &&
              JSON.stringify(m.embeds).includes('(bonus bet)') &&
              control(m, 'v1:slip:confirm:') !== undefined,
          ),
      { timeoutMs: 20_000 },
    );
    await ld.clickButton({ user: bettor, message: slip, customId: control(slip, 'v1:slip:confirm:')?.custom_id ?? '' });
    await until('the bonus bet receipt', () => /^Bet placed/.test(title(slip.id)), { timeoutMs: 30_000 });
    const last = (await sandboxBets()).at(-1);
    expect((last as { bet?: unknown } | undefined)?.bet).toMatchObject({ stake: 5, is_bonus_bet: true });
  });

  it('offers a "Bet" menu per book under /price racing and turns a pick into a racing slip', async () => {
    const { ld } = desk;
    const user = ld.users.bettor;
    const channelId = ld.channelIds.bets;
    const ix = await ld.sendCommand({
      user,
      channelId,
      name: 'price',
      subcommand: 'racing',
      options: { track: race.value, race: race.raceNum, date: race.date },
    });
    await ix.acknowledged;
    const reply = await until('the race prices', () => ix.responses().find((m) => control(m, 'v1:race:pick:')), {
      timeoutMs: 15_000,
    });
    const pick = control(reply, 'v1:race:pick:');
    const option = pick?.options?.[2];
    expect(option).toBeDefined();
    const modalSeen = new Promise<{ custom_id: string }>((resolve) =>
      ld.events.once('modal', (e) => resolve({ custom_id: String(e.modal.custom_id) })),
    );
    await ld.selectMenu({ user, message: reply, customId: pick?.custom_id ?? '', values: [option?.value ?? '0'] });
    const modal = await modalSeen;
    expect(modal.custom_id).toMatch(/^v1:race:stake:/);
    await ld.submitModal({
      user,
      channelId,
      customId: modal.custom_id,
      fields: { stake: '2', market: 'place', min_odds: '' },
    });
    const slip = await until(
      'the slip from the price menu',
      () =>
        ld
          .messages(channelId)
          .find(
            (m) =>
              m.embeds[0]?.title === 'Bet slip' &&
              m.visibleTo === null &&
              JSON.stringify(m.embeds).includes(option?.label ?? '?') &&
              JSON.stringify(m.embeds).includes('Place'),
          ),
      { timeoutMs: 20_000 },
    );
    expect(control(slip, 'v1:slip:confirm:')).toBeDefined();
  });
});

describe('the promo inbox', () => {
  it('lists placeable bet-boost cards first and places one from /promos through place_promo', async () => {
    const { ld } = desk;
    const user = ld.users.bettor;
    const channelId = ld.channelIds.bets;
    const ix = await ld.sendCommand({ user, channelId, name: 'promos', options: {} });
    await ix.acknowledged;
    const inbox = await until('the inbox', () => ix.responses().find((m) => m.embeds[0]?.title === 'Promo inbox'), {
      timeoutMs: 15_000,
    });
    const fields = inbox.embeds[0]?.fields ?? [];
    expect(fields.length).toBeGreaterThan(1);
    expect(fields[0]?.value).toMatch(/Placeable by id/);
    const pick = control(inbox, 'v1:promo:pick');
    const option = pick?.options?.[0];
    expect(option).toBeDefined();
    const modalSeen = new Promise<{ custom_id: string }>((resolve) =>
      ld.events.once('modal', (e) => resolve({ custom_id: String(e.modal.custom_id) })),
    );
    await ld.selectMenu({ user, message: inbox, customId: pick?.custom_id ?? '', values: [option?.value ?? ''] });
    const modal = await modalSeen;
    await ld.submitModal({ user, channelId, customId: modal.custom_id, fields: { stake: '5' } });
    const slip = await until(
      'the promo slip',
      () =>
        ld
          .messages(channelId)
          .find(
            (m) =>
              m.embeds[0]?.title === 'Bet slip' &&
              m.visibleTo === null &&
              JSON.stringify(m.embeds).includes('Bet boost') &&
              control(m, 'v1:slip:confirm:') !== undefined,
          ),
      { timeoutMs: 20_000 },
    );
    const before = (await sandboxBets()).length;
    await ld.clickButton({ user, message: slip, customId: control(slip, 'v1:slip:confirm:')?.custom_id ?? '' });
    await until('the promo receipt', () => /^Bet placed/.test(title(slip.id)), { timeoutMs: 30_000 });
    expect((await sandboxBets()).length).toBe(before + 1);
    const record = (await new BetRecordRepo(desk.bot.store).recent({ guildId: ld.guildId, limit: 1 }))[0];
    expect(record?.payload.kind).toBe('promo');
    expect(record?.payload.promo?.promoId).toBe(Number(option?.value));
  });

  it('links a promo needing a chosen runner to its race at its book, and the slip carries the promo', async () => {
    const { ld } = desk;
    const user = ld.users.bettor;
    const channelId = ld.channelIds.bets;
    const ix = await ld.sendCommand({ user, channelId, name: 'promos', options: {} });
    await ix.acknowledged;
    const inbox = await until('the inbox', () => ix.responses().find((m) => control(m, 'v1:promo:race:')), {
      timeoutMs: 15_000,
    });
    const link = control(inbox, 'v1:promo:race:');
    const promoId = link?.custom_id?.split(':').at(-1);
    const { promos } = await desk.bot.context.gateway.accountPromos.list();
    const promo = promos.find((p) => String(p.promo_id) === promoId);
    expect(promo?.how_to_bet?.endpoint).toBe('/v3/place_bet');
    const clicked = await ld.clickButton({ user, message: inbox, customId: link?.custom_id ?? '' });
    const board = await until('the race prices', () => clicked.responses().find((m) => control(m, 'v1:race:pick:')), {
      timeoutMs: 15_000,
    });
    expect(board.embeds[0]?.title).toContain(`${promo?.track} R${promo?.race_num}`);
    // Only the promo's own book is offered: the promo belongs to that account.
    const menus = (board.components as Array<{ components: Array<{ placeholder?: string }> }>).flatMap(
      (r) => r.components,
    );
    expect(menus.map((m) => m.placeholder)).toEqual([`Bet at ${promo?.bookie}: pick a runner`]);
    const pick = control(board, 'v1:race:pick:');
    const modalSeen = new Promise<{ custom_id: string }>((resolve) =>
      ld.events.once('modal', (e) => resolve({ custom_id: String(e.modal.custom_id) })),
    );
    await ld.selectMenu({ user, message: board, customId: pick?.custom_id ?? '', values: ['0'] });
    const modal = await modalSeen;
    await ld.submitModal({
      user,
      channelId,
      customId: modal.custom_id,
      fields: { stake: '2', market: 'win', min_odds: '' },
    });
    const label = `promo ${promo?.how_to_bet?.promo_name}`;
    const slip = await until(
      'the slip carrying the promo',
      () =>
        ld
          .messages(channelId)
          .find(
            (m) => m.visibleTo === null && JSON.stringify(m.embeds).includes(label) && control(m, 'v1:slip:confirm:'),
          ),
      { timeoutMs: 20_000 },
    );
    expect(slip).toBeDefined();
    const rows = await desk.bot.store.query<{ payload: string }>('SELECT payload FROM slips');
    const payloads = rows.map((r) => JSON.parse(r.payload) as { racing?: { promoName?: string } });
    expect(payloads.some((p) => p.racing?.promoName === promo?.how_to_bet?.promo_name)).toBe(true);
  });

  it('resends a promo whose answer was lost with the stored key, and the gateway places nothing new', async () => {
    const repo = new BetRecordRepo(desk.bot.store);
    const placed = (await repo.recent({ guildId: desk.ld.guildId, limit: 5 })).find((r) => r.payload.kind === 'promo');
    expect(placed?.state).toBe('placed');
    // As if place_promo's 202 never arrived: no job row, no correlation id, state unknown.
    await desk.bot.store.query('DELETE FROM jobs WHERE correlation_id = ?', placed?.correlationId);
    await desk.bot.store.query(
      "UPDATE bet_records SET state = 'unknown', bet_id = NULL, correlation_id = NULL WHERE placement_id = ?",
      placed?.placementId,
    );
    const before = (await sandboxBets()).length;
    const reconciler = new Reconciler({
      gateway: desk.bot.context.gateway,
      records: repo,
      logger: desk.bot.context.logger,
      // Past the wait a promo record is given before reconciliation resends it.
      now: () => desk.now() + 60_000,
      safeWindowMs: 600_000,
      intervalMs: 60_000,
      callbackUrl: undefined,
      show: async () => undefined,
      resend: (r) => desk.bot.context.placement.resendPromo(r),
    });
    await reconciler.run();
    const after = await until(
      'the resent promo’s result',
      async () => {
        const r = await repo.get(placed?.placementId as string);
        return r?.state === 'placed' ? r : undefined;
      },
      { timeoutMs: 15_000 },
    );
    expect(after.betId).toBe(placed?.betId);
    expect(after.correlationId).toBe(placed?.correlationId);
    expect((await sandboxBets()).length).toBe(before);
  });
});
