import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { betSlip, messageMatching, newTrail, pickEvent, press } from './flows.js';
import { type Desk, startDesk } from './harness.js';
import { textOf, until } from './messages.js';

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
    return until(`the /${name} ${sub} reply`, () => ix.responses().find((m) => done.test(textOf(m))), 20_000);
  }

  it('records the hold, the placement and the limit change, each linked to the hash before it', async () => {
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
    const cli = await run(process.execPath, ['--import', 'tsx', 'src/bot/ledger-cli.ts', 'verify'], {
      env: { ...process.env, STORE_URL: desk.env.STORE_URL },
    }).then(
      () => ({ code: 0, out: '' }),
      (err: { code: number; stdout: string }) => ({ code: err.code, out: err.stdout }),
    );
    expect(cli.code).toBe(1);
    expect(cli.out).toContain(`broken at entry ${placement!.seq}`);
  });
});
