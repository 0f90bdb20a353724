import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ledger } from '../../src/bot/ledger/ledger-repo.js';
import type { LocalMessage } from '../../src/local-discord/index.js';
import { betSlip, messageMatching, newTrail, pickEvent, press } from '../support/flows.js';
import { type Desk, startDesk } from '../support/harness.js';
import { textOf } from '../support/messages.js';
import { until } from '../support/wait.js';

/**
 * The reconciliation checks each bet record's ledger entries against its state: a record moved in the store
 * without its entry, or an entry written without a move, is named in the post with the bet's placement id.
 */
describe("the reconciliation checks every bet record's ledger entries against its state", () => {
  let desk: Desk;
  let record: { placement_id: string; day: string; created_at: number; guild_key: string };

  beforeAll(async () => {
    desk = await startDesk({ webhooks: true });
    await admin('settings', { channel: desk.ld.channelIds.results }, 'results-channel', /Saved/);
    const sel = await pickEvent(desk, 'nba', 1);
    const trail = newTrail();
    const { slip } = await betSlip(desk, trail, { user: desk.ld.users.bettor, sel, stake: 7 });
    await press(desk, trail, desk.ld.users.bettor, slip, /^Confirm$/);
    await messageMatching(desk, slip, /Bet placed ✅/, 20_000);
    const [placed] = await desk.bot.store.query<typeof record>(
      "SELECT placement_id, day, created_at, guild_key FROM bet_records WHERE state = 'placed' LIMIT 1",
    );
    if (!placed) throw new Error('the bet was not placed');
    record = placed;
  }, 90_000);
  afterAll(() => desk?.close());

  async function admin(name: string, options: Record<string, string | number>, sub: string, done: RegExp) {
    const ix = await desk.ld.sendCommand({
      user: desk.ld.users.admin,
      channelId: desk.ld.channelIds.bets,
      name,
      subcommand: sub,
      options,
    });
    return until(`the /${name} ${sub} reply`, () => ix.responses().find((m) => done.test(textOf(m))), {
      timeoutMs: 20_000,
    });
  }

  /** /ledger reconcile for the bet's day, and the new post in #results. */
  async function reconcile(): Promise<string> {
    const posts = () =>
      desk.ld.messages(desk.ld.channelIds.results).filter((m: LocalMessage) => /Daily reconciliation/.test(textOf(m)));
    const before = posts().length;
    await admin('ledger', { day: record.day }, 'reconcile', /Reconciliation of/);
    return textOf(await until('the reconciliation post', () => posts()[before], { timeoutMs: 30_000 }));
  }

  it('names no entry mismatch for a bet whose every move wrote its entry', async () => {
    expect(await reconcile()).not.toMatch(/ledger entry/);
  });

  it('names the missing entry of a record settled in the store without one', async () => {
    // The record moves as if its settlement committed and its entry were lost (updated within the bet's day).
    await desk.bot.store.query(
      "UPDATE bet_records SET state = 'settled', settled_status = 'won', updated_at = ? WHERE placement_id = ?",
      record.created_at,
      record.placement_id,
    );
    const post = await reconcile();
    expect(post).toContain(`**Missing ledger entry** · bet ${record.placement_id}`);
    expect(post).toContain('the bet record is settled, but no entry for placed → settled in the ledger');
  });

  it('names an entry written for a move the record never made as extra', async () => {
    const extra = await new Ledger(desk.bot.store).append({
      at: record.created_at,
      guildKey: record.guild_key,
      kind: 'release',
      ref: record.placement_id,
      actor: null,
      amountCents: 700,
      data: { from: 'placed', to: 'refused' },
    });
    const post = await reconcile();
    expect(post).toContain(`**Extra ledger entry** · bet ${record.placement_id}`);
    expect(post).toContain(`entry ${extra.seq} is a release for placed → refused, which is no move of a bet`);
  });
});
