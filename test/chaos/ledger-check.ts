import { Ledger } from '../../src/bot/ledger/ledger-repo.js';
import { BET_ENTRY_KINDS, type BetState, checkBetEntries } from '../../src/bot/model/bet-states.js';
import type { BotStore } from '../../src/bot/store/index.js';

/**
 * What is wrong between the ledger and the bet records: a broken chain, or a record whose entries are not exactly
 * one per move from its claim to its state (a move committed without its entry, or an entry without its move).
 */
export async function ledgerAgainstRecords(store: BotStore): Promise<string[]> {
  const problems: string[] = [];
  const ledger = new Ledger(store);
  const verified = await ledger.verify();
  if (!verified.ok) problems.push(`ledger broken at entry ${verified.seq}: ${verified.reason}`);
  const records = await store.query<{ placement_id: string; state: BetState }>(
    'SELECT placement_id, state FROM bet_records ORDER BY created_at',
  );
  const entries = (await ledger.forRefs(records.map((x) => x.placement_id))).filter((e) => BET_ENTRY_KINDS.has(e.kind));
  for (const rec of records) {
    const mine = entries
      .filter((e) => e.ref === rec.placement_id)
      .map((e) => ({ seq: e.seq, kind: e.kind, from: e.data.from as BetState | null, to: e.data.to as BetState }));
    for (const p of checkBetEntries(rec.state, mine))
      problems.push(`${rec.placement_id} (${rec.state}): ${p.problem} ${p.detail}`);
  }
  if (records.length === 0) problems.push('no bet records to check');
  return problems;
}
