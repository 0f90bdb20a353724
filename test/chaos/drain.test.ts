import { describe, expect, inject, it } from 'vitest';
import { chainStaged } from '../../src/bot/ledger/index.js';
import { openStore } from '../../src/bot/store/index.js';
import type { LocalMessage } from '../../src/local-discord/index.js';
import { createDatabase } from '../pg/cluster.js';
import { ENGINES } from '../pg/engines.js';
import { type BotChild, spawnBot, spawnReadyBot } from '../support/bot-child.js';
import { betSlip, newTrail, pickEvent, press } from '../support/flows.js';
import { startDesk } from '../support/harness.js';
import { textOf } from '../support/messages.js';
import { until } from '../support/wait.js';

const BEFORE = [11, 12, 13, 14];
const AFTER = [21, 22, 23, 24];

/**
 * SIGTERM in the middle of a burst of Confirms, against the bot in its own process: the Confirms it took before the
 * signal are held at the gateway's door (place_bet) when it arrives; the Confirms after it are answered "restarting".
 * Released, the drain finishes the first ones, shows them placed and exits 0; none of the later ones is placed.
 */
describe.each(ENGINES)('SIGTERM drain on %s', (engine) => {
  it('places every bet confirmed before the signal exactly once and shows it; none after it; exits 0', async () => {
    const env: Record<string, string> = { DRAIN_GRACE_SECONDS: '30' };
    if (engine === 'postgres') env.STORE_URL = await createDatabase(inject('pgAdminUrl'), 'drain');
    const desk = await startDesk({ webhooks: true, proxy: true, inProcessBot: false, env });
    let child: BotChild | undefined;
    const store = await openStore(desk.env.STORE_URL as string);
    try {
      child = await spawnReadyBot(desk);
      const sel = await pickEvent(desk, 'nba', 1);
      const trail = newTrail();
      const { bettor } = desk.ld.users;
      const slips = new Map<number, LocalMessage>();
      for (const stake of [...BEFORE, ...AFTER]) {
        slips.set(stake, (await betSlip(desk, trail, { user: bettor, sel, stake })).slip);
      }

      desk.proxy!.hold('/v3/place_bet');
      await Promise.all(BEFORE.map((stake) => press(desk, trail, bettor, slips.get(stake)!, /^Confirm$/)));
      await until(
        'the Confirms taken before the signal at the gateway',
        () => desk.proxy!.heldFor('/v3/place_bet') === BEFORE.length,
        { timeoutMs: 20_000, seen: () => `${desk.proxy!.heldFor('/v3/place_bet')} held` },
      );

      process.kill(child.pid, 'SIGTERM');
      // The process says it drains (GET /readyz names it) before the later Confirms are pressed.
      await until('the drain to start', async () => {
        const res = await fetch(`${child!.receiverUrl}/readyz`);
        return /draining/.test(await res.text());
      });
      const late = await Promise.all(AFTER.map((stake) => press(desk, trail, bettor, slips.get(stake)!, /^Confirm$/)));
      for (const handle of late) {
        const answer = await until(
          'the restarting answer',
          () => handle.responses().find((m) => /restarting/.test(textOf(m))),
          {
            seen: () =>
              handle
                .responses()
                .map((m) => textOf(m))
                .join(' | ') || '(no response)',
          },
        );
        expect(textOf(answer)).toContain('The desk is restarting — try again in a moment.');
      }
      // Held only this long (a few seconds, well inside place_bet's deadline): the first Confirms go on.
      desk.proxy!.release();

      const exit = await child.exited;
      expect(exit, child.stderr.join('').slice(-3000)).toEqual({ code: 0, signal: null });
      for (const stake of BEFORE) {
        // Shown before the process exited: the drain sent the outbox.
        const shown = desk.ld.message(slips.get(stake)!.id);
        expect(textOf(shown!), `slip of ${stake}`).toMatch(/Bet placed ✅/);
      }
      const bets = (await desk.control.state()).bets.filter((b) => JSON.stringify(b.bet).includes(sel.epk));
      const stakes = bets.map((b) => Number(b.bet.stake)).sort((a, b) => a - b);
      expect(stakes).toEqual(BEFORE);
      const records = await store.query<{ stake_cents: number; state: string }>(
        'SELECT stake_cents, state FROM bet_records ORDER BY stake_cents',
      );
      expect(records.map((r) => [Number(r.stake_cents) / 100, r.state])).toEqual(BEFORE.map((s) => [s, 'placed']));
      for (const stake of AFTER) {
        expect(textOf(desk.ld.message(slips.get(stake)!.id)!), `slip of ${stake}`).not.toMatch(/Bet placed|submitted/);
      }
      // The outbox was sent before the exit: nothing is left for the next start.
      const pending = await store.query<{ n: number }>("SELECT COUNT(*) AS n FROM outbox WHERE state = 'pending'");
      expect(Number(pending[0]?.n)).toBe(0);
    } finally {
      await child?.stop();
      await store.close();
      await desk.close();
    }
  }, 180_000);
});

/**
 * A second SIGTERM while the drain waits on Confirms held at the gateway's door: the process exits at once, and the
 * next start loses nothing: the bets that never reached the gateway are found not placed, their holds released, and
 * their slips say so.
 */
describe.each(ENGINES)('a second SIGTERM on %s', (engine) => {
  it('exits at once, and the next start settles every bet it left sending, once', async () => {
    const env: Record<string, string> = {
      DRAIN_GRACE_SECONDS: '60',
      RECONCILE_WINDOW_SECONDS: '1',
      GATEWAY_JOB_DEADLINE_SECONDS: '1',
      RECONCILE_INTERVAL_SECONDS: '1',
    };
    if (engine === 'postgres') env.STORE_URL = await createDatabase(inject('pgAdminUrl'), 'drain2');
    const desk = await startDesk({ webhooks: true, proxy: true, inProcessBot: false, env });
    let child: BotChild | undefined;
    const store = await openStore(desk.env.STORE_URL as string);
    try {
      child = await spawnReadyBot(desk);
      const sel = await pickEvent(desk, 'nba', 2);
      const trail = newTrail();
      const { bettor } = desk.ld.users;
      const slips = [];
      for (const stake of BEFORE) slips.push((await betSlip(desk, trail, { user: bettor, sel, stake })).slip);
      desk.proxy!.hold('/v3/place_bet');
      await Promise.all(slips.map((slip) => press(desk, trail, bettor, slip, /^Confirm$/)));
      await until('the Confirms at the gateway', () => desk.proxy!.heldFor('/v3/place_bet') === BEFORE.length, {
        timeoutMs: 20_000,
      });
      process.kill(child.pid, 'SIGTERM');
      await until('the drain to start', async () =>
        /draining/.test(await (await fetch(`${child!.receiverUrl}/readyz`)).text()),
      );
      const t0 = Date.now();
      process.kill(child.pid, 'SIGTERM');
      expect(await child.exited).toEqual({ code: 1, signal: null });
      expect(Date.now() - t0).toBeLessThan(5_000);
      // The held sends die with the process: nothing reached the gateway.
      desk.proxy!.drop();
      const sending = await store.query<{ n: number }>("SELECT COUNT(*) AS n FROM bet_records WHERE state = 'sending'");
      expect(Number(sending[0]?.n)).toBe(BEFORE.length);

      await until('the old gateway session to drop', () => desk.ld.connectedBots === 0, { timeoutMs: 5_000 });
      child = await spawnBot(desk.env);
      await until(
        'every record settled',
        async () => {
          const rows = await store.query<{ state: string }>('SELECT state FROM bet_records');
          return rows.length === BEFORE.length && rows.every((r) => r.state === 'not_placed');
        },
        { timeoutMs: 40_000 },
      );
      for (const slip of slips) {
        await until('the slip to say not placed', () => /Bet not placed/.test(textOf(desk.ld.message(slip.id)!)), {
          timeoutMs: 20_000,
        });
      }
      await chainStaged(store); // as every read of the ledger does (decision 2131)
      const releases = await store.query<{ n: number }>("SELECT COUNT(*) AS n FROM ledger WHERE kind = 'release'");
      expect(Number(releases[0]?.n)).toBe(BEFORE.length);
      const bets = (await desk.control.state()).bets.filter((b) => JSON.stringify(b.bet).includes(sel.epk));
      expect(bets).toHaveLength(0);
    } finally {
      await child?.stop();
      await store.close();
      await desk.close();
    }
  }, 180_000);
});
