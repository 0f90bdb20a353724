// Two bot processes (the two shards of one token) on one PostgreSQL store; one is killed with SIGKILL in the
// middle of bets and later in the middle of a settlement post. The survivor finishes every job.
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openStore } from '../../src/bot/store/index.js';
import { signWebhook } from '../../src/gateway/index.js';
import type { LocalMessage } from '../../src/local-discord/types.js';
import { createDatabase } from '../pg/cluster.js';
import { setBetRole } from '../support/bet-role.js';
import { type BotChild, spawnBot } from '../support/bot-child.js';
import { type BettableSelection, betSlip, messageMatching, newTrail, pickEvent, press } from '../support/flows.js';
import { API_KEY, type Desk, startDesk } from '../support/harness.js';
import { textOf } from '../support/messages.js';
import { testPort } from '../support/ports.js';
import type { SandboxBet } from '../support/sandbox-control.js';
import { until } from '../support/wait.js';

const RESULT = /Bet placed ✅|Bet not placed/;

describe('two bot processes on one PostgreSQL, one killed -9', () => {
  let desk: Desk;
  let owner: number;
  const procs = new Map<number, BotChild>();
  let started = 0;
  let storeUrl: string;
  const sels: BettableSelection[] = [];

  /** Shard `id` of 2 in its own process, with its own lease owner id and webhook port. */
  const startShard = async (id: number) => {
    const child = await spawnBot(
      {
        ...desk.env,
        SHARDS: String(id),
        BOT_PROCESS_ID: `shard-${id}-${started++}`,
        WEBHOOK_PORT: String(await testPort()),
      },
      40_000,
    );
    procs.set(id, child);
    await until('the shard on the gateway', () => desk.ld.connectedShards().some(([s]) => s === id), {
      timeoutMs: 20_000,
    });
    return child;
  };

  beforeAll(async () => {
    storeUrl = await createDatabase(inject('pgAdminUrl'), 'failover');
    desk = await startDesk({
      webhooks: false,
      proxy: true,
      inProcessBot: false,
      discordShards: 2,
      env: {
        STORE_URL: storeUrl,
        SHARD_COUNT: '2',
        JOB_LEASE_SECONDS: '3',
        OUTBOX_LEASE_SECONDS: '6',
        SETTLEMENT_INTERVAL_SECONDS: '1',
        RECONCILE_WINDOW_SECONDS: '5',
        GATEWAY_JOB_DEADLINE_SECONDS: '5',
        RECONCILE_INTERVAL_SECONDS: '1',
      },
    });
    owner = desk.ld.guildShard(2);
    // The other shard first: it becomes the settlement leader, so killing the guild's shard leaves it leading.
    await startShard(1 - owner);
    await startShard(owner);
    await until('commands', () => desk.ld.commands().length > 0, { timeoutMs: 20_000 });
    await setBetRole(desk.ld); // betting is closed until an admin names the bet role
  }, 120_000);

  afterAll(async () => {
    for (const [id, p] of procs) console.log(`--- shard ${id}\n${p.stderr.join('').slice(-6000)}`);
    for (const p of procs.values()) await p.stop().catch(() => {});
    await desk?.close();
  });

  const betsWithStake = async (stake: number) =>
    (await desk.control.state()).bets.filter((b) => b.bet.stake === stake).length;

  it('applies the same webhook delivery, arriving at both processes at once, once', async () => {
    const trail = newTrail();
    const { bettor } = desk.ld.users;
    const sel = await pickEvent(desk, 'nba', 3);
    const { slip } = await betSlip(desk, trail, { user: bettor, sel, stake: 9 });
    const edits: string[] = [];
    const onEdit = (e: { message: { id: string } }) => {
      if (e.message.id === slip.id && RESULT.test(textOf(desk.ld.message(slip.id)))) edits.push(slip.id);
    };
    desk.ld.events.on('messageUpdate', onEdit);
    const store = await openStore(storeUrl);
    try {
      desk.proxy!.hold('/api/bet_status'); // only the webhook below can bring the result
      await press(desk, trail, bettor, slip, /^Confirm$/);
      await messageMatching(desk, slip, /Bet submitted/, 20_000);
      const [job] = await store.query<{ correlation_id: string }>(
        "SELECT correlation_id FROM jobs WHERE kind = 'bet' AND state = 'pending'",
      );
      // The sandbox books the bet shortly after its 202.
      let bet: SandboxBet | undefined;
      for (const end = Date.now() + 20_000; !bet && Date.now() < end; await delay(50))
        bet = (await desk.control.state()).bets.find((b) => b.bet.stake === 9);
      if (!bet) throw new Error('the sandbox booked no bet of 9 within 20 s');
      const body = JSON.stringify({
        correlation_id: job!.correlation_id,
        status: 'completed',
        result: {
          success: true,
          bet_id: bet.bet.bet_id,
          odds: bet.bet.odds,
          stake: 9,
          potential_return: bet.bet.potential_return,
        },
        metadata: { bookie: sel.bookie, session_id: bet.bet.session_id },
        delivered_at: new Date().toISOString(),
      });
      const headers = {
        'content-type': 'application/json',
        'bet-correlation-id': job!.correlation_id,
        'bet-signature': signWebhook(body, API_KEY),
      };
      const answers = await Promise.all(
        [...procs.values()].map((p) => fetch(`${p.receiverUrl}/webhooks/gateway`, { method: 'POST', headers, body })),
      );
      expect(answers.map((r) => r.ok)).toEqual([true, true]);
      expect(textOf(await messageMatching(desk, slip, RESULT, 20_000))).toMatch(/Bet placed ✅/);
      desk.proxy!.release(); // the poll answers too now: still one result
      await delay(3000);
      expect({
        edits: edits.length,
        deliveries: await store.query('SELECT correlation_id FROM webhook_deliveries'),
        bets: await betsWithStake(9),
      }).toEqual({ edits: 1, deliveries: [{ correlation_id: job!.correlation_id }], bets: 1 });
    } finally {
      desk.ld.events.off('messageUpdate', onEdit);
      desk.proxy!.release();
      await store.close();
    }
  }, 120_000);

  it('kills the shard that took the bets after Confirm and after the 202: the other finishes them, once each', async () => {
    const trail = newTrail();
    const { bettor } = desk.ld.users;
    for (let i = 0; i < 3; i++) sels.push(await pickEvent(desk, 'nba', i));
    const edits = new Map<string, string[]>();
    const onEdit = (e: { message: { id: string } }) => {
      const t = textOf(desk.ld.message(e.message.id));
      if (RESULT.test(t)) edits.set(e.message.id, [...(edits.get(e.message.id) ?? []), t]);
    };
    desk.ld.events.on('messageUpdate', onEdit);
    try {
      // Slips first: showing one reads its card, an async job whose result the hold below would keep back.
      const slips: LocalMessage[] = [];
      for (const [i, stake] of [11, 12, 13].entries())
        slips.push((await betSlip(desk, trail, { user: bettor, sel: sels[i]!, stake })).slip);
      const [first, second, inFlight] = slips as [LocalMessage, LocalMessage, LocalMessage];
      // After the 202: results held at the proxy, so each job is pending in the store when the process dies.
      desk.proxy!.hold('/api/bet_status');
      const submitted = [first, second];
      for (const slip of submitted) {
        await press(desk, trail, bettor, slip, /^Confirm$/);
        await messageMatching(desk, slip, /Bet submitted/, 20_000);
      }
      // After Confirm: the bet request is on its way when the process dies, and dies with it.
      desk.proxy!.hold('/v3/place_bet');
      await press(desk, trail, bettor, inFlight, /^Confirm$/);
      await until('the bet request at the proxy', () => desk.proxy!.heldFor('/v3/place_bet') > 0);

      await procs.get(owner)!.kill9();
      desk.proxy!.drop();

      for (const slip of submitted)
        expect(textOf(await messageMatching(desk, slip, RESULT, 30_000))).toMatch(/Bet placed ✅/);
      await delay(3000); // a lease and more later: no second result
      // The request that died with its process: the survivor's reconciler finds no such bet at the gateway
      // once the window has passed, and records it as not placed (its stake hold released).
      const store = await openStore(storeUrl);
      let dropped: string | undefined;
      try {
        for (const end = Date.now() + 30_000; dropped !== 'not_placed' && Date.now() < end; await delay(250))
          dropped = (await store.query<{ state: string }>('SELECT state FROM bet_records WHERE stake_cents = 1300'))[0]
            ?.state;
      } finally {
        await store.close();
      }
      expect({
        bets: [await betsWithStake(11), await betsWithStake(12), await betsWithStake(13)],
        results: submitted.map((s) => edits.get(s.id)?.length ?? 0),
        dropped,
      }).toEqual({ bets: [1, 1, 0], results: [1, 1], dropped: 'not_placed' });
    } finally {
      desk.ld.events.off('messageUpdate', onEdit);
      desk.proxy!.release();
    }
  }, 120_000);

  it('kills the settlement watcher in the middle of a notice post: one notice per settled bet', async () => {
    await startShard(owner); // the guild's shard again, as a new process
    const leaderShard = 1 - owner;
    expect(procs.get(leaderShard)!.stderr.join('')).toMatch(/now watches settlements/);
    const store = await openStore(storeUrl);
    try {
      const placed = (await desk.control.state()).bets.filter((b) => b.bet.stake === 11 || b.bet.stake === 12);
      const channel = desk.ld.channelIds.bets;
      const noticesOf = (betId: string) =>
        desk.ld.messages(channel).filter((m) => textOf(m).includes(betId) && !RESULT.test(textOf(m)));
      // Discord slow on the next channel post: the watcher's first notice is in flight (its outbox row leased
      // by the watcher's process, which sends what it queues at once) when that process dies.
      desk.ld.faults.inject({ method: 'POST', path: /\/channels\/\d+\/messages$/, delayMs: 3000, times: 1 });
      for (const sel of sels.slice(0, 2)) await desk.control.settle(sel.epk);
      const inFlight = async () =>
        (
          await store.query(
            "SELECT outbox_key FROM outbox WHERE outbox_key LIKE 'create:settle:%' AND lease_until > ?",
            Date.now(),
          )
        ).length > 0;
      const deadline = Date.now() + 30_000;
      while (!(await inFlight())) {
        if (Date.now() > deadline) throw new Error('no settlement notice was being sent within 30 s');
        await delay(10);
      }
      await procs.get(leaderShard)!.kill9();

      // The survivor takes the watcher's lease, and its outbox resends the dead process's notice once that
      // row's lease runs out (Discord's nonce keeps a resend of a post that did land from doubling it).
      const settled = async () =>
        store.query<{ outbox_key: string; state: string }>(
          "SELECT outbox_key, state FROM outbox WHERE outbox_key LIKE 'create:settle:%' ORDER BY outbox_key",
        );
      for (const end = Date.now() + 60_000; ; await delay(250)) {
        const rows = await settled();
        if (rows.length === placed.length && rows.every((r) => r.state === 'done')) break;
        if (Date.now() > end) throw new Error(`settlement notices not all sent: ${JSON.stringify(rows)}`);
      }
      await delay(3000); // three watcher passes later: still one each
      const records = await store.query<{ state: string }>(
        `SELECT state FROM bet_records WHERE bet_id IN (${placed.map(() => '?').join(', ')})`,
        ...placed.map((b) => b.bet.bet_id),
      );
      expect({
        notices: placed.map((b) => noticesOf(b.bet.bet_id).length),
        records: records.map((r) => r.state),
      }).toEqual({ notices: [1, 1], records: ['settled', 'settled'] });
    } finally {
      await store.close();
    }
  }, 150_000);
});
