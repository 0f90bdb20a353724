// A fund as a busy syndicate's store holds it: members with units, a strike, placed bets still open.
import type { BotStore } from '../../src/bot/store/index.js';

const ROWS_PER_INSERT = 200;

export async function seedFund(
  store: BotStore,
  o: { guildKey: string; members: number; openBets: number; sessionId: string; now: number },
): Promise<{ memberIds: string[] }> {
  const unitsEach = 1_000 * 1_000_000;
  const memberIds = Array.from({ length: o.members }, (_, i) => `9${String(i).padStart(17, '0')}`);
  const old = o.now - 3 * 3_600_000;
  await store.query(
    `INSERT INTO funds (guild_key, opening_price_cents, units, last_strike_id, created_at, updated_at)
     VALUES (?, 100, ?, 'seed-strike', ?, ?)`,
    o.guildKey,
    unitsEach * o.members,
    old,
    old,
  );
  // The fund owns the session's account (decision 1800), joined before every seeded row; its cash bridge starts now.
  await store.query(
    `INSERT INTO fund_accounts (bookie, username, guild_key, float_cents, added_by, added_at, bridge_from)
     VALUES ('bookie_a', 'alpha_a', ?, 0, 'seed', 0, ?)`,
    o.guildKey,
    o.now,
  );
  for (let i = 0; i < memberIds.length; i += ROWS_PER_INSERT) {
    const chunk = memberIds.slice(i, i + ROWS_PER_INSERT);
    await store.query(
      `INSERT INTO fund_members (guild_key, member_id, units, joined_at) VALUES ${chunk.map(() => '(?, ?, ?, ?)').join(', ')}`,
      ...chunk.flatMap((m, j) => [o.guildKey, m, unitsEach, old + i + j]),
    );
    // Each member's opening contribution, issued at the seed strike and matched to a deposit.
    await store.query(
      `INSERT INTO fund_contributions (contribution_id, guild_key, member_id, amount_cents, session_id, state,
         strike_id, units, deposit_id, recorded_by, created_at, updated_at)
       VALUES ${chunk.map(() => "(?, ?, ?, 100000, ?, 'issued', 'seed-strike', ?, ?, 'seed', ?, ?)").join(', ')}`,
      ...chunk.flatMap((m) => [`seed-${m}`, o.guildKey, m, o.sessionId, unitsEach, `dep-${m}`, old, old]),
    );
  }
  const nav = 100_000 * o.members;
  await store.query(
    `INSERT INTO fund_strikes (strike_id, guild_key, dealing_key, at, gross_nav_cents, fee_cents, nav_cents, units_before,
       price, nav_after_cents, units_after, residual_cents, inputs, actor)
     VALUES ('seed-strike', ?, 'seed', ?, ?, 0, ?, ?, 100000000, ?, ?, 0, ?, NULL)`,
    o.guildKey,
    old,
    nav,
    nav,
    unitsEach * o.members,
    nav,
    unitsEach * o.members,
    JSON.stringify({
      sessions: [],
      openStakeCents: 0,
      openBets: 0,
      withdrawnUnpaidCents: 0,
      owedRedemptionsCents: 0,
      feesAccruedCents: 0,
      pendingContributionsCents: 0,
      deferred: { contributions: 0, cashouts: 0 },
    }),
  );
  // Open bets placed an hour ago and last moved two hours before the balance the strike reads.
  for (let i = 0; i < o.openBets; i += ROWS_PER_INSERT) {
    const n = Math.min(ROWS_PER_INSERT, o.openBets - i);
    await store.query(
      `INSERT INTO bet_records (placement_id, slip_id, guild_key, channel_id, user_id, session_id, bookie, day,
         stake_cents, payload, state, bet_id, created_at, updated_at)
       VALUES ${Array.from({ length: n }, () => "(?, ?, ?, 'c', ?, ?, 'bookie_a', 'd', ?, '{}', 'placed', ?, ?, ?)").join(', ')}`,
      ...Array.from({ length: n }, (_, j) => {
        const k = i + j;
        return [
          `pl-${k}`,
          `sl-${k}`,
          o.guildKey,
          memberIds[k % memberIds.length],
          o.sessionId,
          100 + (k % 900),
          `b-${k}`,
          o.now - 3_600_000,
          o.now - 2 * 3_600_000,
        ];
      }).flat(),
    );
  }
  return { memberIds };
}
