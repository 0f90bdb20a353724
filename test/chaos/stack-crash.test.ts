import { expect, it } from 'vitest';
import { openStore } from '../../src/bot/store/index.js';
import type { Race } from '../../src/sandbox/world/racing.js';
import { type BotChild, respawnBot, spawnReadyBot } from '../support/bot-child.js';
import { newTrail, press } from '../support/flows.js';
import { startDesk } from '../support/harness.js';
import { addMulti, multiSlip, openRaces, sandboxMultis } from '../support/stack-flows.js';
import { until } from '../support/wait.js';
import { ledgerAgainstRecords } from './ledger-check.js';

/**
 * kill -9 of a real bot process around a stack's one stacked_srm call (decision 2010), each followed by a restart on
 * the same store: after the claim with the call held before the gateway; with the call at the gateway and its 202
 * held; after the 202 with the result held. Then every multi of every stack is at the book at most once, each one
 * there is known to exactly one bet record, every record is resolved (none left sending, submitted or unknown) and
 * the ledger holds exactly the entries of the moves that committed.
 */
it('places no multi of a stack twice and resolves every record across kill -9 around its stacked_srm call', async () => {
  const desk = await startDesk({
    webhooks: false,
    proxy: true,
    inProcessBot: false,
    env: {
      RECONCILE_WINDOW_SECONDS: '4',
      GATEWAY_JOB_DEADLINE_SECONDS: '4',
      RECONCILE_INTERVAL_SECONDS: '1',
    },
  });
  const proxy = desk.proxy!;
  let child: BotChild | undefined;
  const store = await openStore(desk.env.STORE_URL as string);
  const restart = async () => {
    child = await respawnBot(desk, child);
  };
  /** Each step's race and whether its multis must end at the book (once each) or not at all. */
  const steps: Array<{ race: Race; placed: boolean }> = [];
  try {
    child = await spawnReadyBot(desk);
    const races = openRaces(desk, 3);
    expect(races).toHaveLength(3);
    /** A stack of two multis on `race`, posted and ready to confirm. */
    const stackOn = async (race: Race) => {
      const [a, b, c, d] = race.runners.map((r) => r.name) as [string, string, string, string];
      const first = await multiSlip(desk, race, [`${a}|top4`, `${b}|top4`], 2);
      return addMulti(desk, first, { legs: `${c} top 4\n${d} top 4`, stake: '3' });
    };

    // 1. After the claim, the call held before it reached the gateway: nothing is placed, both records released.
    {
      const race = races[0] as Race;
      const stack = await stackOn(race);
      proxy.hold('/v3/stacked_srm');
      await press(desk, newTrail(), desk.ld.users.bettor, stack, /^Confirm$/);
      await until('stacked_srm at the proxy', () => proxy.heldFor('/v3/stacked_srm') > 0, { timeoutMs: 40_000 });
      await child.kill9();
      proxy.drop();
      await restart();
      steps.push({ race, placed: false });
    }
    // 2. The gateway has the call; its 202 is held when the bot dies: the reconciler finds each multi once.
    {
      const race = races[1] as Race;
      const stack = await stackOn(race);
      proxy.holdAnswers('/v3/stacked_srm');
      await press(desk, newTrail(), desk.ld.users.bettor, stack, /^Confirm$/);
      await until('both multis placed at the gateway', async () => (await sandboxMultis(desk, race)).length === 2, {
        timeoutMs: 40_000,
        everyMs: 50,
      });
      await child.kill9();
      proxy.drop();
      await restart();
      steps.push({ race, placed: true });
    }
    // 3. After the 202, the result held: the restarted bot polls the stored job and applies it once.
    {
      const race = races[2] as Race;
      const stack = await stackOn(race);
      await press(desk, newTrail(), desk.ld.users.bettor, stack, /^Confirm$/);
      // The polls are held from the moment the stack's job is stored (the Confirm's own price check is polled too).
      await until(
        'the stack job stored',
        async () => (await store.query("SELECT 1 FROM jobs WHERE kind = 'stack'")).length === 1,
        { timeoutMs: 40_000, everyMs: 20 },
      );
      proxy.hold('/api/bet_status');
      const onRace = await store.query<{ state: string }>(
        'SELECT state FROM bet_records WHERE epk LIKE ?',
        `%${race.track}/${race.race_num}/%`,
      );
      expect(onRace.filter((r) => r.state === 'placed')).toEqual([]);
      await child.kill9();
      proxy.drop();
      await restart();
      steps.push({ race, placed: true });
    }

    const records = () =>
      store.query<{ slip_id: string; state: string; bet_id: string | null; epk: string }>(
        'SELECT slip_id, state, bet_id, epk FROM bet_records ORDER BY created_at, slip_id',
      );
    let last = '';
    await until(
      'every record resolved',
      async () => {
        const now = await records();
        last = JSON.stringify(now.map((r) => r.state));
        return now.every((r) => !['sending', 'submitted', 'unknown'].includes(r.state));
      },
      { timeoutMs: 40_000, everyMs: 250, seen: () => last },
    );
    const stored = await records();
    expect(stored).toHaveLength(6);
    const held = new Set(stored.flatMap((r) => (r.bet_id ? [r.bet_id] : [])));
    for (const step of steps) {
      const atBook = await sandboxMultis(desk, step.race);
      const mine = stored.filter((r) => r.epk.includes(`${step.race.track}/${step.race.race_num}/`));
      expect(atBook.map((b) => b.bet.stake).sort()).toEqual(step.placed ? [2, 3] : []);
      expect(atBook.every((b) => held.has(b.bet.bet_id))).toBe(true);
      expect(mine.map((r) => r.state)).toEqual(step.placed ? ['placed', 'placed'] : ['not_placed', 'not_placed']);
      expect(new Set(mine.map((r) => r.bet_id).filter(Boolean)).size).toBe(step.placed ? 2 : 0);
    }
    expect(await ledgerAgainstRecords(store)).toEqual([]);
  } finally {
    await child?.stop();
    await store.close();
    await desk.close();
  }
}, 180_000);
