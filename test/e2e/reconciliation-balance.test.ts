import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayClient } from '../../src/gateway/index.js';
import type { LocalMessage } from '../../src/local-discord/index.js';
import { betSlip, messageMatching, newTrail, pickEvent, press } from '../support/flows.js';
import { API_KEY, type Desk, startDesk } from '../support/harness.js';
import { textOf } from '../support/messages.js';
import { accountLabel } from '../support/sandbox-control.js';
import { until } from '../support/wait.js';

/**
 * The reconciliation's balance comparison through Discord: each session's cash at the gateway against the
 * previous check less the stakes the ledger placed plus the returns it settled since; a transaction made at
 * the sandbox that the desk does not know of is named, and a run after desk bets alone names nothing.
 */
describe('the reconciliation compares each session balance with what the ledger implies', () => {
  let desk: Desk;
  let sessionId = '';
  /** How the post names the session: its book and account user name. */
  let account = '';

  beforeAll(async () => {
    desk = await startDesk({ webhooks: true });
    await admin('settings', { channel: desk.ld.channelIds.results }, 'results-channel', /Saved/);
  }, 60_000);
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

  const checks = async () =>
    Number(
      (await desk.bot.store.query<{ n: number }>("SELECT COUNT(*) AS n FROM ledger WHERE kind = 'balance_check'"))[0]
        ?.n ?? 0,
    );

  /** /ledger reconcile, then the new post in #results once its balance checks are recorded. */
  async function reconcile(): Promise<string> {
    const posts = () =>
      desk.ld.messages(desk.ld.channelIds.results).filter((m: LocalMessage) => /Daily reconciliation/.test(textOf(m)));
    const before = posts().length;
    const recorded = await checks();
    // Moves within the sandbox's last 30 s heartbeat may or may not be in the balance it reports: the desk
    // compares balances read after the heartbeat that follows every move, as the daily run does.
    await desk.advance(31_000);
    await admin('ledger', {}, 'reconcile', /Reconciliation of/);
    const post = await until('the reconciliation post', () => posts()[before], { timeoutMs: 30_000 });
    await until('the balance checks recorded after the post', async () => (await checks()) > recorded, {
      timeoutMs: 20_000,
      everyMs: 50,
    });
    return textOf(post);
  }

  it('records the first balance, then finds the cash where the desk’s bets put it: no mismatch', async () => {
    const first = await reconcile();
    expect(first).toMatch(/recorded, compared from the next run/);
    expect(first).not.toMatch(/Balance\*\*/);

    const sel = await pickEvent(desk, 'nba', 0);
    const trail = newTrail();
    const { slip } = await betSlip(desk, trail, { user: desk.ld.users.bettor, sel, stake: 6 });
    await press(desk, trail, desk.ld.users.bettor, slip, /^Confirm$/);
    await messageMatching(desk, slip, /Bet placed ✅/, 20_000);
    const [rec] = await desk.bot.store.query<{ session_id: string }>(
      "SELECT session_id FROM bet_records WHERE state = 'placed' LIMIT 1",
    );
    sessionId = rec!.session_id;
    account = await accountLabel(desk.sandbox.url, API_KEY, sessionId);

    const clean = await reconcile();
    expect(clean).toMatch(/No mismatches\./);
    expect(clean).toMatch(
      new RegExp(`${account}: 1 of 1 matched; cash \\$[\\d,]+\\.\\d\\d, as the desk's records imply`),
    );
  });

  it('names the balance move of a bet made at the sandbox outside the desk, with its amount and bet id', async () => {
    expect(sessionId).not.toBe('');
    const [rec] = await desk.bot.store.query<{ payload: string }>(
      "SELECT payload FROM bet_records WHERE state = 'placed' LIMIT 1",
    );
    const p = JSON.parse(rec!.payload) as { epk: string; sport: string; marketRef: string };
    // Someone bets $4.25 on the syndicate's account at the gateway, not through the desk.
    const client = new GatewayClient({ baseUrl: desk.sandbox.url, apiKey: API_KEY, poller: { now: desk.now } });
    let outsideBetId = '';
    try {
      const bet = await client.bets.place({
        session_id: sessionId,
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

    const post = await reconcile();
    const line = post.split('\n').find((l) => l.startsWith(`**Balance** (${account})`));
    expect(line, post).toBeDefined();
    expect(line).toMatch(
      /cash \$[\d,]+\.\d\d at the gateway, \$[\d,]+\.\d\d implied by the desk's records \(\$[\d,]+\.\d\d at the last check, less stakes placed, plus returns settled since\): -\$4\.25 apart\./,
    );
    expect(line).toContain(`The gateway lists bet ${outsideBetId}, placed outside the desk (-$4.25).`);
    expect(line).not.toMatch(/Nothing the gateway lists explains/);
    // The run after it starts from the cash it found: the move is not named twice.
    const next = await reconcile();
    expect(next).not.toMatch(/\*\*Balance\*\*/);
  });
});
