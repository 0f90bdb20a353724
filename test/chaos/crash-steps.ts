import { type BotStore, openStore } from '../../src/bot/store/index.js';
import { readReceiptLog, receiptLogOf } from '../../src/bot/store/receipt-log.js';
import { type BotChild, respawnBot, spawnReadyBot } from '../support/bot-child.js';
import { betSlip, messageMatching, newTrail, pickEvent, press } from '../support/flows.js';
import { startDesk } from '../support/harness.js';
import { textOf } from '../support/messages.js';
import { holdStoreWrites } from '../support/store-hold.js';
import { until } from '../support/wait.js';
import { completedDelivery, postSigned } from '../support/webhook-result.js';
import { ledgerAgainstRecords } from './ledger-check.js';
import { emptyResult, type ScenarioResult } from './tally.js';

const FINAL = /Bet placed ✅|Bet not placed/;

interface Step {
  name: string;
  stake: number;
  /** Whether the bet must end placed at the gateway (false: it must not exist there). */
  placed: boolean;
  slipId?: string;
}

/**
 * kill -9 of a real bot process at each step of a bet, each followed by a restart on the same store:
 * after the slip; after Confirm before the request reached the gateway; with the request at the gateway and
 * its 202 held at a proxy; after the 202; as the receipt's edit lands before its transaction; after the result
 * while Discord refuses the edit; during a
 * settlement post Discord refuses. Then: no duplicate bet, no gateway bet unknown to the desk, every slip
 * final, one settlement notice per settled bet, the day's stake held exactly for the placed bets, and the
 * ledger holds exactly the entries of the moves that committed (each record's entries walk the transition
 * table to its state) in an unbroken chain. `storeUrl`: the store to run on (default: SQLite in the desk's folder).
 */
export async function crashSteps(opts: { storeUrl?: string } = {}): Promise<ScenarioResult> {
  const r = emptyResult('kill -9 at every step of a bet');
  const desk = await startDesk({
    webhooks: true,
    proxy: true,
    inProcessBot: false,
    // A short safe window and quick passes, so reconciliation decides within the test.
    env: {
      RECONCILE_WINDOW_SECONDS: '4',
      GATEWAY_JOB_DEADLINE_SECONDS: '4',
      RECONCILE_INTERVAL_SECONDS: '1',
      SETTLEMENT_INTERVAL_SECONDS: '1',
      // A notice post in flight when the bot dies is sent again once its lease runs out: seconds, not the
      // default half minute.
      OUTBOX_LEASE_SECONDS: '6',
      ...(opts.storeUrl ? { STORE_URL: opts.storeUrl } : {}),
    },
  });
  const proxy = desk.proxy!;
  let child: BotChild | undefined;
  let store: BotStore | undefined;
  const restart = async () => {
    child = await respawnBot(desk, child);
  };
  const steps: Step[] = [];
  try {
    child = await spawnReadyBot(desk);
    store = await openStore(desk.env.STORE_URL as string);
    const sel = await pickEvent(desk, 'nba', 3);
    const { bettor } = desk.ld.users;
    const recordOf = async (stake: number) =>
      (
        await store!.query<{ state: string; bet_id: string | null; correlation_id: string | null }>(
          'SELECT state, bet_id, correlation_id FROM bet_records WHERE stake_cents = ?',
          stake * 100,
        )
      )[0];
    const sandboxBets = async (stake: number) =>
      (await desk.control.state()).bets.filter((b) => b.bet.stake === stake && JSON.stringify(b.bet).includes(sel.epk));

    // 1. After the slip: the restarted bot confirms it.
    {
      const step: Step = { name: 'after the slip', stake: 11, placed: true };
      const trail = newTrail();
      const { slip } = await betSlip(desk, trail, { user: bettor, sel, stake: step.stake });
      step.slipId = slip.id;
      await restart();
      await press(desk, trail, bettor, slip, /^Confirm$/);
      // Its place_bet must be done before the next step holds place_bet at the proxy.
      await messageMatching(desk, slip, FINAL, 30_000);
      steps.push(step);
    }
    // 2. After Confirm, before the request reached the gateway: nothing placed, the slip says so.
    {
      const step: Step = { name: 'after Confirm, before sending', stake: 12, placed: false };
      const trail = newTrail();
      const { slip } = await betSlip(desk, trail, { user: bettor, sel, stake: step.stake });
      step.slipId = slip.id;
      proxy.hold('/v3/place_bet');
      await press(desk, trail, bettor, slip, /^Confirm$/);
      await until('place_bet at the proxy', () => proxy.heldFor('/v3/place_bet') > 0, {
        timeoutMs: 20_000,
      });
      await child.kill9();
      proxy.drop();
      await restart();
      steps.push(step);
    }
    // 3. The gateway has the request; its 202 is held at the proxy when the bot dies.
    {
      const step: Step = { name: 'request at the gateway, 202 not stored', stake: 13, placed: true };
      const trail = newTrail();
      const { slip } = await betSlip(desk, trail, { user: bettor, sel, stake: step.stake });
      step.slipId = slip.id;
      proxy.holdAnswers('/v3/place_bet');
      await press(desk, trail, bettor, slip, /^Confirm$/);
      await until('the bet placed at the gateway', async () => (await sandboxBets(step.stake)).length > 0, {
        timeoutMs: 20_000,
        everyMs: 50,
      });
      await child.kill9();
      proxy.drop();
      await restart();
      steps.push(step);
    }
    // 4. After the 202: the result is polled (held meanwhile) and shown once after the restart.
    {
      const step: Step = { name: 'after the 202', stake: 14, placed: true };
      const trail = newTrail();
      const { slip } = await betSlip(desk, trail, { user: bettor, sel, stake: step.stake });
      step.slipId = slip.id;
      proxy.hold('/api/bet_status');
      await press(desk, trail, bettor, slip, /^Confirm$/);
      await messageMatching(desk, slip, /Bet submitted|Bet placed/, 20_000);
      await child.kill9();
      proxy.drop();
      await restart();
      steps.push(step);
    }
    // 4b. The receipt's edit sent ahead of its transaction (SQLite, decision 2120), the bot killed the moment Discord
    // applies it: the delivery kept in the journal is applied by the restarted bot, its edit not taken back. The
    // sandbox's own delivery is lost and the polls held, so the delivery comes when this step sends it, while this
    // process holds the store's write lock: on SQLite the bet's transaction cannot commit before the kill.
    {
      const step: Step = { name: 'as the receipt edit lands, before its transaction', stake: 16, placed: true };
      await desk.control.faults({ betting: [{ fault: 'webhook_lost', route: '/v3/place_bet' }] });
      proxy.hold('/api/bet_status');
      const trail = newTrail();
      const { slip } = await betSlip(desk, trail, { user: bettor, sel, stake: step.stake });
      step.slipId = slip.id;
      await press(desk, trail, bettor, slip, /^Confirm$/);
      await messageMatching(desk, slip, /Bet submitted/, 20_000);
      const id = await until(
        'the bet job pending',
        async () => (await recordOf(step.stake))?.correlation_id ?? undefined,
        {
          timeoutMs: 10_000,
          everyMs: 20,
        },
      );
      const raw = await completedDelivery(desk.sandbox.url, id);
      // The slip's "submitted" edit sent and marked so: a receipt never goes ahead of a stage still queued.
      await until('the submitted edit marked sent', async () => {
        const rows = await store!.query<{ n: number }>(
          "SELECT COUNT(*) AS n FROM outbox WHERE outbox_key LIKE ? AND state = 'pending'",
          `edit:%:${slip.id}`,
        );
        return Number(rows[0]?.n ?? 1) === 0;
      });
      const dying = child!;
      let killed = false;
      const onUpdate = ({ message }: { message: { id: string } }) => {
        if (killed || message.id !== slip.id || !/Bet placed/.test(textOf(desk.ld.message(slip.id)))) return;
        killed = true;
        void dying.kill9();
      };
      const hold = await holdStoreWrites(store!);
      desk.ld.events.on('messageUpdate', onUpdate);
      try {
        void postSigned(desk.env.WEBHOOK_PUBLIC_URL!, raw).catch(() => undefined);
        await until('the bot killed as the receipt lands', () => killed, { timeoutMs: 20_000, everyMs: 20 });
      } finally {
        desk.ld.events.off('messageUpdate', onUpdate);
        await hold.release();
      }
      await dying.kill9();
      // The bot's store holds the log (this process's store opens without it): read the file itself.
      const storeUrl = desk.env.STORE_URL as string;
      const kept = storeUrl.startsWith('sqlite://')
        ? readReceiptLog(receiptLogOf(storeUrl.slice('sqlite://'.length)))
        : [];
      // The step is about this bet's receipt. Another job's delivery can be kept beside it: a CI run once found two
      // (which job the other was is not known; the note names any other from now on).
      const mine = kept.some((k) => k.correlationId === id);
      const others = kept.filter((k) => k.correlationId !== id).map((k) => k.correlationId);
      r.notes.push(
        `${step.name}: ${kept.length} receipt(s) left in the journal, this bet's ${mine ? 'among them' : 'not among them'}${others.length > 0 ? ` (others: ${others.join(', ')})` : ''}, record ${(await recordOf(step.stake))?.state}`,
      );
      await desk.control.faults({});
      proxy.drop();
      await restart();
      steps.push(step);
    }
    // 5. After the result, while Discord refuses the receipt edit with 5xx: the outbox sends it after the restart.
    {
      const step: Step = { name: 'after the result, edit refused', stake: 15, placed: true };
      const trail = newTrail();
      const { slip } = await betSlip(desk, trail, { user: bettor, sel, stake: step.stake });
      step.slipId = slip.id;
      // Both ways the slip can be edited: the bot token's, and the Confirm interaction's token (decision 2030).
      for (const path of [`/messages/${slip.id}`, /^\/webhooks\/\d+\/[^/]+\/messages\/@original$/]) {
        desk.ld.faults.inject({ method: 'PATCH', path, status: 500, times: Number.POSITIVE_INFINITY });
      }
      await press(desk, trail, bettor, slip, /^Confirm$/);
      await until('the result recorded', async () => (await recordOf(step.stake))?.state === 'placed', {
        timeoutMs: 20_000,
        everyMs: 50,
      });
      await child.kill9();
      desk.ld.faults.clear();
      await restart();
      steps.push(step);
    }
    // Every slip reaches its final message.
    for (const step of steps) {
      const slip = desk.ld.message(step.slipId!);
      const ok = await until('a final slip', () => FINAL.test(textOf(desk.ld.message(step.slipId!))), {
        timeoutMs: 30_000,
      }).catch(() => false);
      if (!ok) {
        r.lostResults += 1;
        r.notes.push(`${step.name}: slip shows "${textOf(slip).slice(0, 120)}"`);
      }
    }
    // 6. A settlement notice refused by Discord, then a crash, then the restart posts it once.
    desk.ld.faults.inject({
      method: 'POST',
      path: `/channels/${desk.ld.channelIds.bets}/messages`,
      status: 503,
      times: Number.POSITIVE_INFINITY,
    });
    await desk.control.settle(sel.epk);
    await until(
      'a refused settlement post',
      async () => {
        const rows = await store!.query<{ attempts: number }>(
          "SELECT attempts FROM outbox WHERE outbox_key LIKE 'create:settle:%' AND state = 'pending'",
        );
        return rows.some((x) => Number(x.attempts) > 0);
      },
      { timeoutMs: 30_000, everyMs: 50 },
    );
    // Then Discord takes a post slowly: the bot dies while it is in flight, Discord still makes the message,
    // and the restarted bot's resend carries the same nonce, so it is not posted twice.
    desk.ld.faults.clear();
    desk.ld.faults.inject({
      method: 'POST',
      path: `/channels/${desk.ld.channelIds.bets}/messages`,
      delayMs: 3_000,
      times: Number.POSITIVE_INFINITY,
    });
    await new Promise((x) => setTimeout(x, 2_000));
    await child.kill9();
    await new Promise((x) => setTimeout(x, 2_000));
    desk.ld.faults.clear();
    await restart();
    const placedSteps = steps.filter((s) => s.placed);
    const notices = () =>
      desk.ld
        .messages(desk.ld.channelIds.bets)
        .filter((m) => /^(Won|Lost|Void|Cashed out)/.test(m.embeds[0]?.title ?? ''));
    await until('every settlement notice', () => notices().length >= placedSteps.length, {
      timeoutMs: 30_000,
    }).catch(() => undefined);
    await new Promise((x) => setTimeout(x, 2_000)); // a settlement pass more: nothing is posted twice
    const noticeCount = notices().length;

    // The tallies.
    const held = new Set(
      (await store.query<{ bet_id: string }>('SELECT bet_id FROM bet_records WHERE bet_id IS NOT NULL')).map(
        (x) => x.bet_id,
      ),
    );
    let unknownToDesk = 0;
    for (const step of steps) {
      const atGateway = await sandboxBets(step.stake);
      r.duplicateBets += Math.max(0, atGateway.length - 1);
      unknownToDesk += atGateway.filter((b) => !held.has(b.bet.bet_id)).length;
      if (atGateway.length !== (step.placed ? 1 : 0))
        r.notes.push(`${step.name}: ${atGateway.length} bets at the gateway`);
    }
    const heldCents = await store.query<{ total: number }>(
      `SELECT COALESCE(SUM(stake_cents), 0) AS total FROM bet_records
       WHERE state IN ('sending', 'submitted', 'unknown', 'placed', 'settled', 'missing')`,
    );
    const expectedCents = placedSteps.reduce((a, s) => a + s.stake * 100, 0);
    const stakeRight = Number(heldCents[0]?.total) === expectedCents;
    const ledgerProblems = await ledgerAgainstRecords(store);
    r.notes.push(...ledgerProblems);
    r.ledgerProblems = ledgerProblems.length;
    r.survived =
      r.duplicateBets === 0 &&
      r.lostResults === 0 &&
      unknownToDesk === 0 &&
      noticeCount === placedSteps.length &&
      stakeRight &&
      ledgerProblems.length === 0;
    r.notes.push(
      `steps ${steps.length}, duplicate bets ${r.duplicateBets}, gateway bets unknown to the desk ${unknownToDesk}, ` +
        `lost results ${r.lostResults}, settlement notices ${noticeCount} of ${placedSteps.length}, ` +
        `stake held ${Number(heldCents[0]?.total) / 100} of ${expectedCents / 100}, ledger problems ${ledgerProblems.length}`,
    );
  } finally {
    const exit = child ? await Promise.race([child.exited, Promise.resolve(undefined)]) : undefined;
    if (exit) r.crashes += 1;
    await child?.stop();
    await store?.close();
    await desk.close();
  }
  return r;
}
