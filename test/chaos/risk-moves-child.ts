// The fund's risk state moved as fast as the store takes it, until the process is killed: a stop latched, two
// approvers' votes resume it, and a limit change, over and over. The chaos suite kills it -9 mid-move and then checks
// that every move has exactly its ledger entries (decision 1951). Prints `moving` once the first cycle went through.

import { type RiskCtx, setLimits, voteResume } from '../../src/bot/fund/fund-risk.js';
import { quorumOf } from '../../src/bot/fund/model/risk-limits.js';
import { updateRiskState } from '../../src/bot/fund/risk-limits-repo.js';
import { openStore } from '../../src/bot/store/index.js';

const GUILD = 'g-risk';
const store = await openStore(String(process.env.STORE_URL));
const ctx = { store, now: Date.now } as unknown as RiskCtx;
const run = String(process.env.RUN_ID);

/** The latch as the risk picture makes it: the stop and its entry. */
async function latch(i: number): Promise<void> {
  await updateRiskState(store, GUILD, (s) => {
    if (s.stop) return undefined;
    const stop = {
      at: Date.now(),
      strikeId: `${run}-${i}`,
      drawdownBps: 1_600,
      votes: [],
      quorum: quorumOf(null, s.limits),
    };
    return {
      next: { ...s, stop },
      result: stop,
      entries: () => [
        {
          at: stop.at,
          guildKey: GUILD,
          kind: 'fund_decision' as const,
          ref: `risk:${GUILD}`,
          actor: null,
          amountCents: null,
          data: { risk: 'drawdown_stop', strikeId: stop.strikeId },
        },
      ],
    };
  });
}

await setLimits(ctx, GUILD, 'treasurer', { drawdown: 1_500, quorum: 2 });
for (let i = 0; ; i++) {
  await latch(i);
  await voteResume(ctx, GUILD, 'ann');
  await voteResume(ctx, GUILD, 'ben');
  await setLimits(ctx, GUILD, 'treasurer', { daily_loss: 10_000 + (i % 50) });
  if (i === 2) process.stdout.write('moving\n');
}
