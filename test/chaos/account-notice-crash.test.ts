// kill -9 around an account's state-change notice: recorded while Discord refuses it, the bot killed; then in
// flight when the bot is killed again. The restarted bot posts it, once.
import { describe, expect, it } from 'vitest';
import { updateSettings } from '../../src/bot/settings/guild-settings.js';
import { type BotStore, openStore } from '../../src/bot/store/index.js';
import { type BotChild, respawnBot, spawnReadyBot } from '../support/bot-child.js';
import { betSlip, messageMatching, newTrail, pickEvent, press } from '../support/flows.js';
import { startDesk } from '../support/harness.js';
import { textOf } from '../support/messages.js';
import { until } from '../support/wait.js';

const BOOKIE_A = '5e55a1fa-0000-4000-8000-00000000000a';

// SQLite only: the outbox's claim and nonce SQL it relies on runs on PostgreSQL in crash-steps (decision 1650).
describe('the notice of an account’s change of state, through kill -9', () => {
  it('is posted exactly once', async () => {
    // A notice in flight when the bot dies is sent again once its outbox lease runs out: seconds, not half a minute.
    const desk = await startDesk({ inProcessBot: false, env: { OUTBOX_LEASE_SECONDS: '6' } });
    let child: BotChild | undefined;
    let store: BotStore | undefined;
    const restart = async () => {
      child = await respawnBot(desk, child);
    };
    const results = `/channels/${desk.ld.channelIds.results}/messages`;
    const notices = () => desk.ld.messages(desk.ld.channelIds.results).filter((m) => /is now/.test(textOf(m)));
    try {
      child = await spawnReadyBot(desk);
      store = await openStore(desk.env.STORE_URL as string);
      await updateSettings(store, desk.ld.guildId, (s) => ({ ...s, resultsChannelId: desk.ld.channelIds.results }));
      const sel = await pickEvent(desk);
      // The book restricts the account; Discord refuses every post to the results channel for now.
      const marked = await fetch(`${desk.sandbox.url}/_sandbox/accounts/restrict`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ session_id: BOOKIE_A }),
      });
      expect(marked.status).toBe(200);
      desk.ld.faults.inject({ method: 'POST', path: results, status: 503, times: Number.POSITIVE_INFINITY });

      const trail = newTrail();
      const { slip } = await betSlip(desk, trail, { user: desk.ld.users.bettor, sel, stake: 5 });
      await press(desk, trail, desk.ld.users.bettor, slip, /^Confirm$/);
      await messageMatching(desk, slip, /Bet not placed/, 30_000);
      await until(
        'the notice recorded and refused by Discord',
        async () => {
          const rows = await store!.query<{ attempts: number }>(
            "SELECT attempts FROM outbox WHERE outbox_key LIKE 'create:account-state:%' AND state = 'pending'",
          );
          return rows.some((r) => Number(r.attempts) > 0) ? true : undefined;
        },
        { timeoutMs: 30_000, everyMs: 50 },
      );
      await child.kill9();
      // Then Discord takes the post slowly: the bot dies with it in flight, Discord still makes the message, and
      // the next bot's resend carries the same nonce.
      desk.ld.faults.clear();
      desk.ld.faults.inject({ method: 'POST', path: results, delayMs: 3_000, times: Number.POSITIVE_INFINITY });
      await restart();
      await new Promise((r) => setTimeout(r, 2_000));
      await restart();
      desk.ld.faults.clear();
      await until('the notice', () => (notices().length > 0 ? true : undefined), { timeoutMs: 30_000 });
      await new Promise((r) => setTimeout(r, 3_000)); // an outbox pass and a resume more: nothing posted twice
      expect(notices().map((m) => textOf(m).match(/is now \*\*\w[\w-]*\*\*/)?.[0])).toEqual(['is now **restricted**']);
      const entries = await store.query<{ n: number }>("SELECT COUNT(*) AS n FROM ledger WHERE kind = 'account_state'");
      expect(Number(entries[0]?.n)).toBe(1);
    } finally {
      await child?.stop();
      await store?.close();
      await desk.close();
    }
  }, 180_000);
});
