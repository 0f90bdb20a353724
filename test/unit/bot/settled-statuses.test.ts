// A settlement read once into cents (decision 2015) and the one list of settled statuses (decision 2016): the
// transaction's dollars become the settlement's cents, a half won or half lost bet settles like any other, and no
// file of the desk keeps its own copy of the list.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { pnl } from '../../../src/bot/analytics/pnl.js';
import { factOf } from '../../../src/bot/analytics/source.js';
import { settlementOf } from '../../../src/bot/betting/model/settlement.js';
import { settlementView } from '../../../src/bot/betting/views/notice.js';
import type { BetRecord } from '../../../src/bot/model/bet-states.js';
import type { SlipPayload } from '../../../src/bot/model/slip-rules.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

const tx = (status: string, stake: number, pnl?: number | null) => ({ id: 'B1', type: 'bet', status, stake, pnl });

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

const settledRecord = (status: string, pnlCents: number): BetRecord => ({
  placementId: 'p1',
  slipId: 's1',
  guildKey: 'g',
  guildId: 'g',
  channelId: 'c',
  messageId: 'm',
  userId: 'u',
  sessionId: 'sess',
  bookie: 'bookie_a',
  day: '2026-11-28',
  stakeCents: 1_234,
  payload: { epk: 'e1', sport: 'soccer', shownOdds: 1.9 } as SlipPayload,
  state: 'settled',
  correlationId: null,
  timeoutAt: null,
  betId: 'B1',
  odds: 1.9,
  note: null,
  settledStatus: status,
  pnlCents,
  misses: 0,
  closeOdds: null,
  closeMarket: null,
  createdAt: 1,
  updatedAt: 2,
});

describe("a settlement's money, read once where it arrives", () => {
  it("turns the transaction's dollars into cents: stake, P&L and what came back", () => {
    expect(settlementOf(tx('won', 12.34, 10.5))).toMatchObject({
      status: 'won',
      stakeCents: 1_234,
      pnlCents: 1_050,
      returnedCents: 2_284,
    });
    expect(settlementOf(tx('lost', 12.34, -12.34))).toMatchObject({ pnlCents: -1_234, returnedCents: 0 });
    expect(settlementOf(tx('void', 5, null))).toMatchObject({ pnlCents: null, returnedCents: 500 });
  });

  it('settles a half won or half lost bet by its P&L, and leaves a pending one open', () => {
    expect(settlementOf(tx('half_won', 10, 4.5))).toMatchObject({ status: 'half_won', returnedCents: 1_450 });
    expect(settlementOf(tx('half_lost', 12.34, -6.17))).toMatchObject({ status: 'half_lost', returnedCents: 617 });
    expect(settlementOf(tx('pending', 10, 0))).toBeUndefined();
  });

  it('says a half won bet as one, with its cents', () => {
    const view = settlementView({ settlement: settlementOf(tx('half_won', 10, 4.5))!, userId: null, detail: {} });
    expect(view.embeds[0]?.title).toMatch(/^Half won · /);
    const fields = Object.fromEntries((view.embeds[0]?.fields ?? []).map((f) => [f.name, f.value]));
    expect(fields).toMatchObject({ Stake: '$10.00', 'P&L': '+$4.50', Returned: '$14.50' });
  });

  it("counts a half won bet's P&L in profit and turnover, and in neither the won nor the lost count", () => {
    const facts = [settledRecord('half_won', 617), settledRecord('won', 1_111)].flatMap(factOf);
    expect(facts.map((f) => [f.status, f.returnCents])).toEqual([
      ['half_won', 1_851],
      ['won', 2_345],
    ]);
    expect(pnl(facts)).toMatchObject({ profitCents: 1_728, turnoverCents: 2_468, won: 1, lost: 0 });
  });
});

describe('the settled statuses', () => {
  it('are listed only in the shared model: no file of the desk keeps its own list', () => {
    const copies = [...sources(join(ROOT, 'src/bot')), ...sources(join(ROOT, 'commands'))]
      .map((path) => relative(ROOT, path))
      .filter((file) => file !== 'src/bot/model/bet-states.ts')
      .filter((file) => /\[\s*'won',\s*'lost'/.test(readFileSync(join(ROOT, file), 'utf8')));
    expect(copies).toEqual([]);
  });
});
