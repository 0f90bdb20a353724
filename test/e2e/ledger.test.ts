import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chainStaged } from '../../src/bot/ledger/index.js';
import { GatewayClient } from '../../src/gateway/index.js';
import { betSlip, messageMatching, newTrail, pickEvent, press } from '../support/flows.js';
import { API_KEY, type Desk, startDesk } from '../support/harness.js';
import { textOf } from '../support/messages.js';
import { accountLabel } from '../support/sandbox-control.js';
import { until } from '../support/wait.js';

const run = promisify(execFile);

/** The ledger through Discord: every move of a bet and every limit change is chained, and a tampered row is named. */
describe('the hash-chained ledger', () => {
  let desk: Desk;

  beforeAll(async () => {
    desk = await startDesk({ webhooks: true });
    const sel = await pickEvent(desk, 'nba', 0);
    const trail = newTrail();
    const { slip } = await betSlip(desk, trail, { user: desk.ld.users.bettor, sel, stake: 3 });
    await press(desk, trail, desk.ld.users.bettor, slip, /^Confirm$/);
    await messageMatching(desk, slip, /Bet placed ✅/, 20_000);
    await admin('settings', { per_bet: 40, per_day: 120 }, 'limits', /Saved/);
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

  it('records the hold, the placement and the limit change, each linked to the hash before it', async () => {
    await chainStaged(desk.bot.store); // as every read of the ledger does (decision 2131)
    const rows = await desk.bot.store.query<{ kind: string; amount_cents: number | null }>(
      'SELECT kind, amount_cents FROM ledger ORDER BY seq',
    );
    const kinds = rows.map((r) => r.kind);
    expect(kinds.slice(0, 1)).toEqual(['hold']);
    expect(kinds).toContain('placement');
    expect(kinds).toContain('limit_change');
    expect(rows.find((r) => r.kind === 'placement')?.amount_cents).toBe(300);
    const reply = await admin('ledger', {}, 'verify', /ledger is/);
    expect(textOf(reply)).toContain(`intact: ${rows.length} entries`);
  });

  it('names the first tampered entry, from /ledger verify and from npm run ledger -- verify', async () => {
    const [placement] = await desk.bot.store.query<{ seq: number }>(
      "SELECT seq FROM ledger WHERE kind = 'placement' ORDER BY seq LIMIT 1",
    );
    await desk.bot.store.query('UPDATE ledger SET amount_cents = amount_cents + 100 WHERE seq = ?', placement!.seq);
    const reply = await admin('ledger', {}, 'verify', /ledger is/);
    expect(textOf(reply)).toContain(`broken at entry ${placement!.seq}: its content does not match its hash`);
    const cli = await run(process.execPath, ['--import', 'tsx', 'src/bot/ledger/cli.ts', 'verify'], {
      env: { ...process.env, STORE_URL: desk.env.STORE_URL },
    }).then(
      () => ({ code: 0, out: '' }),
      (err: { code: number; stdout: string; stderr: string }) => ({ code: err.code, out: err.stdout + err.stderr }),
    );
    expect(cli.code, cli.out).toBe(1);
    expect(cli.out).toContain(`broken at entry ${placement!.seq}`);
  });

  it('posts the reconciliation in the results channel, naming a bet the gateway took that the ledger lacks', async () => {
    await admin('settings', { channel: desk.ld.channelIds.results }, 'results-channel', /Saved/);
    const [rec] = await desk.bot.store.query<{ session_id: string; payload: string }>(
      "SELECT session_id, payload FROM bet_records WHERE state IN ('placed', 'settled') LIMIT 1",
    );
    const p = JSON.parse(rec!.payload) as { epk: string; sport: string; marketRef: string };
    // Someone bets on the syndicate's account outside the desk.
    const client = new GatewayClient({ baseUrl: desk.sandbox.url, apiKey: API_KEY, poller: { now: desk.now } });
    let outsideBetId = '';
    try {
      const bet = await client.bets.place({
        session_id: rec!.session_id,
        category: 'sports',
        sport: p.sport,
        epk: p.epk,
        market_ref: p.marketRef,
        stake: 4.25,
        target_odds: 1.01,
      });
      const outcome = await bet.wait();
      if (outcome.status !== 'completed') throw new Error(`the outside bet ended ${outcome.status}`);
      outsideBetId = String(outcome.result.bet_result?.bet_id ?? '');
    } finally {
      await client.close();
    }
    expect(outsideBetId).not.toBe('');
    await admin('ledger', {}, 'reconcile', /Reconciliation of/);
    const post = await desk.ld.waitForMessage(
      desk.ld.channelIds.results,
      (m) => /Daily reconciliation/.test(textOf(m)),
      20_000,
    );
    const text = textOf(post);
    // The post names the session by its book and account user name, not its id.
    const account = await accountLabel(desk.sandbox.url, API_KEY, rec!.session_id);
    expect(text).not.toContain(rec!.session_id);
    expect(text).toMatch(/1 of 2 bets at the gateway matched the ledger\. 1 mismatch\./);
    expect(text).toContain(
      `**${outsideBetId}** (${account}): a $4.25 bet at the gateway that the ledger has no placement for`,
    );
  });
});
