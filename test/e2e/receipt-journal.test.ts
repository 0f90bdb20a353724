// On SQLite a receipt's one durable write goes to a journal file of its own (decision 2120): the slip shows the
// result while another transaction holds the store's write lock, and the store catches up once it is free.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OUTBOX_MOVES } from '../../src/bot/outbox/model/outbox-states.js';
import { messageMatching } from '../support/flows.js';
import { type Desk, startDesk } from '../support/harness.js';
import { holdStoreWrites } from '../support/store-hold.js';
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

const submittedBet = (stake: number) => betAwaitingDelivery(desk, stake);
const deliver = (raw: string) => deliverSigned(desk, raw);

describe('a receipt on SQLite (decision 2120)', () => {
  it('reaches the slip while another transaction holds the store, which applies it once free', async () => {
    const { slip, id, raw } = await submittedBet(7);
    const journal = desk.bot.store.receipts;

    const hold = await holdStoreWrites(desk.bot.store);
    try {
      const answered = await Promise.race([
        deliver(raw).then((res) => res.status),
        new Promise<string>((resolve) => setTimeout(() => resolve('no answer in 5 s'), 5_000)),
      ]);
      expect(answered).toBe(200);
      await messageMatching(desk, slip, /Bet placed/);
      expect(journal).toBeDefined();
      // Still held: the bet's record has not moved yet; the delivery waits in the journal.
      const [record] = await journal!.read<{ state: string }>(
        'SELECT state FROM bet_records WHERE correlation_id = ?',
        id,
      );
      expect(record?.state).toBe('submitted');
      expect((await journal!.pending()).map((k) => k.correlationId)).toEqual([id]);
    } finally {
      await hold.release();
    }
    const applied = await until(
      'the store to apply the receipt',
      async () => {
        const [row] = await desk.bot.store.query<{ job: string; bet: string; edit: string }>(
          `SELECT j.state AS job, b.state AS bet, o.state AS edit FROM jobs j
           JOIN bet_records b ON b.correlation_id = j.correlation_id
           LEFT JOIN outbox o ON o.outbox_key = 'edit:' || b.channel_id || ':' || b.message_id
           WHERE j.correlation_id = ?`,
          id,
        );
        return row?.job === 'posted' && (await journal!.pending()).length === 0 ? row : undefined;
      },
      { timeoutMs: 10_000, everyMs: 20 },
    );
    // The edit went ahead: its outbox row is marked sent, not sent again.
    expect(applied).toEqual({ job: 'posted', bet: 'placed', edit: OUTBOX_MOVES.send.to });
  });

  it('applies two copies of one delivery sent at once once: one move, one ledger entry for it', async () => {
    const { slip, id, raw } = await submittedBet(9);
    const answers = await Promise.all([deliver(raw), deliver(raw)]);
    const bodies = (await Promise.all(answers.map((a) => a.json()))) as { duplicate?: boolean }[];
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect(bodies.filter((b) => b.duplicate === false)).toHaveLength(1);
    await messageMatching(desk, slip, /Bet placed/);
    await until('the journal empty', async () => ((await desk.bot.store.receipts?.pending()) ?? []).length === 0, {
      timeoutMs: 10_000,
    });
    const [placement] = await desk.bot.store.query<{ placement_id: string }>(
      'SELECT placement_id FROM bet_records WHERE correlation_id = ?',
      id,
    );
    // The move to placed is the one entry that leaves submitted; chained once, not twice.
    const entries = await until(
      'the placement chained',
      async () => {
        const rows = await desk.bot.store.query<{ data: string }>(
          'SELECT data FROM ledger WHERE ref = ?',
          placement!.placement_id,
        );
        const moves = rows.filter((r) => (JSON.parse(r.data) as { from?: string }).from === 'submitted');
        return moves.length > 0 ? moves : undefined;
      },
      { timeoutMs: 10_000 },
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    const again = await desk.bot.store.query<{ data: string }>(
      'SELECT data FROM ledger WHERE ref = ?',
      placement!.placement_id,
    );
    expect(again.filter((r) => (JSON.parse(r.data) as { from?: string }).from === 'submitted')).toHaveLength(
      entries.length,
    );
    expect(entries).toHaveLength(1);
  });
});
