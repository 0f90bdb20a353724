// A bet's result by webhook: by the time the receiver answers 2xx its delivery is on disk (decision 1990: in the
// transaction that also resolves the job, moves the bet and records the slip's edit; on SQLite, decision 2120: in the
// receipt journal first, the edit sent at once, that transaction just after). Soon after, all of it has committed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RANK } from '../../src/bot/betting/model/edit-rank.js';
import { messageMatching } from '../support/flows.js';
import { type Desk, startDesk } from '../support/harness.js';
import { until } from '../support/wait.js';
import { betAwaitingDelivery, deliverSigned } from '../support/webhook-result.js';

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
    const { slip, id, raw } = await betAwaitingDelivery(desk, 7);
    const res = await deliverSigned(desk, raw);
    expect(res.status).toBe(200);
    // Read as soon as the 2xx is in: the delivery is kept, in the journal or already in the store.
    const [stored] = await desk.bot.store.query<{ n: number }>(
      'SELECT COUNT(*) AS n FROM webhook_deliveries WHERE correlation_id = ?',
      id,
    );
    const kept = (await desk.bot.store.receipts?.pending()) ?? [];
    expect(Number(stored?.n) + kept.filter((k) => k.correlationId === id).length).toBeGreaterThanOrEqual(1);
    // Then everything the receipt needs commits together, and the journal lets it go.
    const state = await until(
      'the receipt applied',
      async () => {
        const [row] = await desk.bot.store.query<{ job: string; bet: string; rank: number | null; stored: number }>(
          `SELECT j.state AS job, b.state AS bet, o.rank AS rank,
             (SELECT COUNT(*) FROM webhook_deliveries d WHERE d.correlation_id = j.correlation_id) AS stored
           FROM jobs j JOIN bet_records b ON b.correlation_id = j.correlation_id
           LEFT JOIN outbox o ON o.outbox_key = 'edit:' || b.channel_id || ':' || b.message_id
           WHERE j.correlation_id = ?`,
          id,
        );
        const left = (await desk.bot.store.receipts?.pending()) ?? [];
        return row?.job === 'posted' && left.length === 0 ? row : undefined;
      },
      { timeoutMs: 5_000, everyMs: 20 },
    );
    expect({ ...state, rank: Number(state.rank), stored: Number(state.stored) }).toEqual({
      job: 'posted',
      bet: 'placed',
      rank: RANK.final,
      stored: 1,
    });
    await messageMatching(desk, slip, /Bet placed/);
  });
});
