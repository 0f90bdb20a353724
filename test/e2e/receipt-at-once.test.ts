// A bet's result by webhook is applied in the transaction that stores its delivery (decision 1990): by the time the
// receiver answers 2xx, the delivery, the job, the bet record's move and the slip's receipt edit are all on disk.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RANK } from '../../src/bot/betting/model/edit-rank.js';
import { WEBHOOK_PATH } from '../../src/bot/receiver/receiver.js';
import { GatewayClient, signWebhook } from '../../src/gateway/index.js';
import { betSlip, messageMatching, newTrail, pickEvent, press } from '../support/flows.js';
import { API_KEY, type Desk, startDesk } from '../support/harness.js';
import { until } from '../support/wait.js';

let desk: Desk;

beforeAll(async () => {
  desk = await startDesk({ webhooks: true, proxy: true });
});
afterAll(async () => {
  desk?.proxy?.release();
  await desk?.close();
});

describe('a bet result delivered by webhook', () => {
  it('has moved the bet, posted its job and recorded the receipt edit when the receiver answers 2xx', async () => {
    // The result reaches the desk only by the delivery this test sends: the sandbox's is lost, the polls held.
    await desk.control.faults({ betting: [{ fault: 'webhook_lost', route: '/v3/place_bet' }] });
    desk.proxy!.hold('/api/bet_status');
    const sel = await pickEvent(desk, 'nba');
    const trail = newTrail();
    const { slip } = await betSlip(desk, trail, { user: desk.ld.users.bettor, sel, stake: 7 });
    await press(desk, trail, desk.ld.users.bettor, slip, /^Confirm$/);
    await messageMatching(desk, slip, /Bet submitted/);
    const [job] = await desk.bot.store.query<{ correlation_id: string }>(
      "SELECT correlation_id FROM jobs WHERE kind = 'bet' AND state = 'pending'",
    );
    expect(job).toBeDefined();
    const id = job!.correlation_id;
    const sandbox = new GatewayClient({ baseUrl: desk.sandbox.url, apiKey: API_KEY });
    const done = await until(
      'the bet job finished at the sandbox',
      async () => (await sandbox.jobs.status([id])).find((e) => e.status === 'completed'),
      { timeoutMs: 20_000 },
    );
    await sandbox.close();

    const raw = JSON.stringify({
      correlation_id: id,
      status: 'completed',
      result: done.result,
      delivered_at: new Date().toISOString(),
    });
    const res = await fetch(`${desk.bot.receiverUrl}${WEBHOOK_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'bet-signature': signWebhook(raw, API_KEY) },
      body: raw,
    });
    expect(res.status).toBe(200);
    // One statement, read as soon as the 2xx is in: everything the receipt needs committed together before it.
    const [state] = await desk.bot.store.query<{ job: string; bet: string; rank: number | null; stored: number }>(
      `SELECT j.state AS job, b.state AS bet, o.rank AS rank,
         (SELECT COUNT(*) FROM webhook_deliveries d WHERE d.correlation_id = j.correlation_id) AS stored
       FROM jobs j JOIN bet_records b ON b.correlation_id = j.correlation_id
       LEFT JOIN outbox o ON o.outbox_key = 'edit:' || b.channel_id || ':' || b.message_id
       WHERE j.correlation_id = ?`,
      id,
    );
    expect({ ...state, rank: Number(state?.rank), stored: Number(state?.stored) }).toEqual({
      job: 'posted',
      bet: 'placed',
      rank: RANK.final,
      stored: 1,
    });
    await messageMatching(desk, slip, /Bet placed/);
  });
});
