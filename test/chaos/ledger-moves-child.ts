// Bets claimed and moved through every path of the transition table, as fast as the store takes them, until the
// process is killed: the chaos suite kills it -9 mid-move and then checks the ledger against the records.
// Prints `moving` on stdout once the first bets have gone through.

import { BetRecordRepo } from '../../src/bot/betting/bet-records.js';
import { SlipRepo } from '../../src/bot/betting/slips.js';
import type { SlipPayload } from '../../src/bot/model/slip-rules.js';
import { openStore } from '../../src/bot/store/index.js';

const store = await openStore(String(process.env.STORE_URL));
const slips = new SlipRepo(store);
const records = new BetRecordRepo(store);
const run = String(process.env.RUN_ID);
let done = 0;

async function bet(id: string, path: number): Promise<void> {
  const now = Date.now();
  await slips.create({
    slipId: id,
    guildId: 'g1',
    channelId: 'c1',
    messageId: `m-${id}`,
    userId: 'u1',
    payload: {
      stakeCents: 100,
      sessionId: '1001',
      bookie: 'bookie_a',
      epk: 'nba/e1',
      marketKey: 'moneyline',
    } as SlipPayload,
    createdAt: now,
    expiresAt: now + 600_000,
  });
  const claimed = await records.claim({
    placementId: `p-${id}`,
    slipId: id,
    userId: 'u1',
    guildKey: 'g1',
    day: '2026-11-25',
    stakeCents: 100,
    dayLimitCents: 1_000_000_000,
    now: Date.now(),
  });
  if (claimed.kind !== 'claimed') throw new Error(`claim of ${id}: ${claimed.kind}`);
  const p = claimed.record.placementId;
  const t = () => Date.now();
  const submitted = { correlationId: `c-${id}`, timeoutAt: null, odds: 2 };
  if (path === 0) {
    await records.markSubmitted(p, submitted, t());
    await records.markPlaced(p, { betId: `B-${id}`, odds: 2 }, t());
    await records.markSettled(p, { settledStatus: 'won', pnlCents: 100 }, t());
  } else if (path === 1) {
    await records.markNotSent(p, { note: 'refused before sending' }, t());
  } else if (path === 2) {
    await records.markSendUnknown(p, { note: 'timeout' }, t());
    await records.markNotPlaced(p, { note: 'not found' }, t());
    await records.markPlaced(p, { betId: `B-${id}`, odds: 2 }, t());
    await records.markMissing(p, { note: 'gone' }, t());
  } else {
    await records.markSubmitted(p, submitted, t());
    await records.markResultUnknown(p, { note: 'job unknown' }, t());
    await records.markAdopted(p, { betId: `B-${id}`, odds: 2, note: 'found' }, t());
  }
  done += 1;
  if (done === 20) process.stdout.write('moving\n');
}

await Promise.all(
  Array.from({ length: 6 }, async (_, w) => {
    for (let i = 0; ; i++) await bet(`${run}-${w}-${i}`, (w + i) % 4);
  }),
);
