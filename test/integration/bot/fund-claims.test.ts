import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BetRecordRepo, type FundClaim } from '../../../src/bot/betting/bet-records.js';
import { SlipRepo } from '../../../src/bot/betting/slips.js';
import { FundRepo } from '../../../src/bot/fund/fund-repo.js';
import type { SlipPayload } from '../../../src/bot/model/slip-rules.js';
import { type BotStore, openStore } from '../../../src/bot/store/index.js';
import { createRng } from '../../chaos/rng.js';
import { ENGINES, freshStoreUrl } from '../../pg/engines.js';

const DAY = '2026-11-22';
const GUILD = 'g1';
const ACCOUNT = { bookie: 'bookie_a', username: 'fund_a' };
const EVENTS = ['nfl/e1', 'nfl/e2', 'nfl/e3'];

/**
 * The fund's rooms reserved with the bet's record (decision 1950), on both engines, by two stores on one database (two
 * desk processes' connections): generated bursts of Confirms on the fund's account, all at once, with the account's
 * removal racing them. Whatever the order, what the fund's records hold never passes the account's room, the daily
 * loss room or an event's cap, and an account leaves the fund only with no fund bet open on it.
 */
describe.each(ENGINES)('the fund’s rooms under concurrent claims on %s', (engine) => {
  let cleanup: () => void;
  let stores: BotStore[];

  beforeEach(async () => {
    const fresh = await freshStoreUrl(engine, { migrated: true });
    cleanup = fresh.cleanup;
    stores = [await openStore(fresh.url), await openStore(fresh.url)];
  });
  afterEach(async () => {
    for (const s of stores) await s.close();
    cleanup();
  });

  it('never holds more than a room, whichever of 40 Confirms from two processes wins, in 6 generated bursts', async () => {
    const [a, b] = stores as [BotStore, BotStore];
    const fundRepo = new FundRepo(b);
    for (let seed = 1; seed <= 6; seed++) {
      const rng = createRng(seed * 7919);
      await a.query('DELETE FROM bet_records');
      await a.query('DELETE FROM fund_accounts');
      await a.query(
        `INSERT INTO fund_accounts (bookie, username, guild_key, float_cents, added_by, added_at, bridge_from)
         VALUES (?, ?, ?, 0, 'admin', 0, 0)`,
        ACCOUNT.bookie,
        ACCOUNT.username,
        GUILD,
      );
      const rooms: FundClaim = {
        fundKey: GUILD,
        account: `${ACCOUNT.bookie}/${ACCOUNT.username}`,
        ...ACCOUNT,
        accountRoomCents: rng.int(50, 300) * 100,
        cashReadAt: 0,
        dailyLossRoomCents: rng.int(50, 300) * 100,
        eventCapCents: rng.int(20, 150) * 100,
      };
      const claims = Array.from({ length: 40 }, (_, i) => ({
        slipId: `s${seed}-${i}`,
        user: `u${i % 5}`,
        stakeCents: rng.int(1, 60) * 100,
        epk: EVENTS[rng.int(0, EVENTS.length - 1)] as string,
        store: i % 2 === 0 ? a : b,
      }));
      for (const c of claims) {
        await new SlipRepo(a).create({
          slipId: c.slipId,
          guildId: GUILD,
          channelId: 'c1',
          messageId: `m-${c.slipId}`,
          userId: c.user,
          payload: {
            stakeCents: c.stakeCents,
            sessionId: 'sess-a',
            bookie: ACCOUNT.bookie,
            account: ACCOUNT.username,
            epk: c.epk,
            marketKey: 'h2h',
          } as SlipPayload,
          createdAt: Date.now(),
          expiresAt: Date.now() + 60_000,
        });
      }
      const removeAt = rng.int(0, claims.length);
      const removal: Array<Promise<{ removed: boolean }>> = [];
      const outcomes = await Promise.all(
        claims.map(async (c, i) => {
          if (i === removeAt) {
            removal.push(fundRepo.removeAccount(GUILD, { ...ACCOUNT, sessionIds: ['sess-a'] }, 'admin', Date.now()));
          }
          return new BetRecordRepo(c.store).claim({
            placementId: `p-${c.slipId}`,
            slipId: c.slipId,
            userId: c.user,
            guildKey: GUILD,
            day: DAY,
            stakeCents: c.stakeCents,
            dayLimitCents: 1_000_000,
            fund: rooms,
            now: Date.now(),
          });
        }),
      );
      const removed = (await Promise.all(removal)).some((r) => r.removed);
      const held = await a.query<{ epk: string; stake_cents: number; fund_key: string | null }>(
        'SELECT epk, stake_cents, fund_key FROM bet_records',
      );
      const sum = (rows: typeof held) => rows.reduce((t, r) => t + Number(r.stake_cents), 0);
      const why = `seed ${seed}: ${JSON.stringify(rooms)} held ${sum(held)}`;
      expect(
        held.every((r) => r.fund_key === GUILD),
        why,
      ).toBe(true);
      expect(sum(held), why).toBeLessThanOrEqual(rooms.accountRoomCents as number);
      expect(sum(held), why).toBeLessThanOrEqual(rooms.dailyLossRoomCents as number);
      for (const epk of EVENTS) {
        expect(sum(held.filter((r) => r.epk === epk)), why).toBeLessThanOrEqual(rooms.eventCapCents as number);
      }
      // Each refusal names the room it found full, and there was no room for that stake in it.
      for (const [i, o] of outcomes.entries()) {
        if (o.kind === 'fund_over') expect(o.usedCents + (claims[i]?.stakeCents ?? 0)).toBeGreaterThan(o.limitCents);
        else if (o.kind !== 'fund_moved') expect(o.kind, why).toBe('claimed');
      }
      // Removed only with nothing of the fund's open on the account: every claim after it found it gone.
      if (removed) expect(held, why).toEqual([]);
      else
        expect(
          outcomes.some((o) => o.kind === 'fund_moved'),
          why,
        ).toBe(false);
    }
  }, 60_000);
});
