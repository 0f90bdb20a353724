import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BetRecordRepo, type StackClaimRequest } from '../../../src/bot/betting/bet-records.js';
import { SlipRepo } from '../../../src/bot/betting/slips.js';
import { stackMembers, stackRecordSlipId } from '../../../src/bot/betting/stack.js';
import { Ledger } from '../../../src/bot/ledger/ledger-repo.js';
import type { SlipPayload } from '../../../src/bot/model/slip-rules.js';
import { type BotStore, openStore } from '../../../src/bot/store/index.js';
import { ENGINES, freshStoreUrl } from '../../pg/engines.js';

let cleanup: () => void;
let store: BotStore;
let slips: SlipRepo;
let records: BetRecordRepo;
const DAY = '2026-11-28';
const RACE = { track: 'Flemington', raceNum: 3, raceType: '(R)' as const, date: DAY };

/** Stores an open slip of the guild's channel. */
function putSlip(slipId: string, userId: string, payload: SlipPayload) {
  const at = Date.now();
  return slips.create({
    slipId,
    guildId: 'g1',
    channelId: 'c1',
    messageId: `m-${slipId}`,
    userId,
    payload,
    createdAt: at,
    expiresAt: at + 60_000,
  });
}

/** A stack slip of `stakes` (dollars), one two-leg multi each, on one race. */
async function stackSlip(id: string, userId: string, stakes: number[]): Promise<SlipPayload> {
  const multi = {
    ...RACE,
    legs: [
      { runner: 'Alpha', position: 'top3' as const, winPrice: 3 },
      { runner: 'Bravo', position: 'top4' as const, winPrice: 5 },
    ],
    method: 'multiplicative' as const,
    books: 1,
  };
  const payload = {
    kind: 'stack',
    stack: stakes.map((s) => ({ multi, stakeCents: s * 100 })),
    stakeCents: stakes.reduce((a, s) => a + s * 100, 0),
    sessionId: '1001',
    bookie: 'bookie_a',
    epk: 'racing:Flemington/3/(R)/2026-11-28',
    sport: 'racing',
    eventName: 'Flemington R3',
    marketKey: 'srm',
    marketLabel: 'Stack',
    selectionLabel: 'stack',
    marketRef: '',
    shownOdds: 1.01,
  } as SlipPayload;
  await putSlip(id, userId, payload);
  return payload;
}

/** A racing single on `runner`, or a multi on `legs`, of `stake` dollars on the race. */
async function raceSlip(id: string, userId: string, stake: number, bet: { runner: string } | { legs: string[] }) {
  const race = { epk: 'racing:Flemington/3/(R)/2026-11-28', eventName: 'Flemington R3', sessionId: '1001' };
  const payload = (
    'runner' in bet
      ? { kind: 'racing', racing: { ...RACE, runner: bet.runner, market: 'win' }, marketKey: 'win' }
      : {
          kind: 'multi',
          multi: {
            ...RACE,
            legs: bet.legs.map((runner) => ({ runner, position: 'top4', winPrice: 4 })),
            method: 'multiplicative',
            books: 1,
          },
          marketKey: 'srm',
        }
  ) as Partial<SlipPayload>;
  await putSlip(id, userId, {
    ...race,
    ...payload,
    bookie: 'bookie_a',
    stakeCents: stake * 100,
    sport: 'racing',
  } as SlipPayload);
}

const claimStack = (slipId: string, userId: string, payload: SlipPayload, over: Partial<StackClaimRequest> = {}) =>
  records.claimStack({
    slipId,
    userId,
    guildKey: 'g1',
    day: DAY,
    dayLimitCents: 100_000,
    now: Date.now(),
    members: stackMembers(payload, slipId).map((p, i) => ({
      placementId: `p-${slipId}-${i}-${Math.random()}`,
      slipId: stackRecordSlipId(slipId, i + 1),
      payload: p,
      stakeCents: p.stakeCents,
    })),
    ...over,
  });

// A stack's claim (decision 2010) on both engines: every record or none, the caps counted for the whole stack.
describe.each(ENGINES)('stack claims on %s', (engine) => {
  beforeEach(async () => {
    const fresh = await freshStoreUrl(engine, { migrated: true });
    cleanup = fresh.cleanup;
    store = await openStore(fresh.url);
    slips = new SlipRepo(store);
    records = new BetRecordRepo(store);
  });
  afterEach(async () => {
    await store.close();
    cleanup();
  });

  it('holds the race cap for whole stacks: 10 concurrent $40 stacks under $100 leave two, none in part', async () => {
    const payloads = await Promise.all(
      Array.from({ length: 10 }, (_, i) => stackSlip(`st${i}`, `member${i}`, [15, 25])),
    );
    const results = await Promise.all(
      payloads.map((p, i) => claimStack(`st${i}`, `member${i}`, p, { caps: { perEventCents: 10_000 } })),
    );
    const claimed = results.filter((r) => r.kind === 'claimed');
    expect(claimed).toHaveLength(2);
    expect(claimed.every((r) => r.kind === 'claimed' && r.records.length === 2)).toBe(true);
    const refused = results.filter((r) => r.kind === 'over_limit');
    expect(refused).toHaveLength(8);
    expect(refused.every((r) => r.kind === 'over_limit' && r.cap === 'event' && r.usedCents === 8_000)).toBe(true);
    const rows = await store.query<{ slip_id: string; stake_cents: number }>(
      'SELECT slip_id, stake_cents FROM bet_records ORDER BY slip_id',
    );
    // Every stack written is whole: its first record under the slip's id, its second under `#2`.
    const stacks = new Map<string, number[]>();
    for (const r of rows) {
      const id = r.slip_id.split('#')[0] as string;
      stacks.set(id, [...(stacks.get(id) ?? []), Number(r.stake_cents)]);
    }
    expect([...stacks.values()]).toEqual([
      [1_500, 2_500],
      [1_500, 2_500],
    ]);
  });

  it('claims a stack once, with one hold entry per multi, and tells a second claim it was handled', async () => {
    const payload = await stackSlip('once', 'u1', [2, 3, 4]);
    const first = await claimStack('once', 'u1', payload);
    const again = await claimStack('once', 'u1', payload);
    expect(first.kind).toBe('claimed');
    expect(again.kind).toBe('handled');
    const stored = await records.byStack('once');
    expect(stored.map((r) => [r.slipId, r.stakeCents, r.state, r.payload.stackOf?.index])).toEqual([
      ['once', 200, 'sending', 1],
      ['once#2', 300, 'sending', 2],
      ['once#3', 400, 'sending', 3],
    ]);
    const entries = await new Ledger(store).forRefs(stored.map((r) => r.placementId));
    expect(entries.map((e) => [e.kind, e.amountCents])).toEqual([
      ['hold', 200],
      ['hold', 300],
      ['hold', 400],
    ]);
    // The slip cannot be closed under its claim.
    expect(await slips.close('once')).toBe(false);
  });

  it('counts the whole stack against the member’s day: a $60 stack does not fit $50 left', async () => {
    const payload = await stackSlip('day', 'u1', [30, 30]);
    const out = await claimStack('day', 'u1', payload, { dayLimitCents: 5_000 });
    expect(out.kind === 'over_limit' && [out.cap, out.usedCents, out.limitCents]).toEqual(['member_day', 0, 5_000]);
    expect(await records.byStack('day')).toEqual([]);
  });

  it('holds the runner cap across singles, multis and stacks: a multi counts its whole stake on each leg’s runner', async () => {
    const caps = { perRunnerCents: 1_000 };
    const claim = (slipId: string, stakeCents: number) =>
      records.claim({
        placementId: `p-${slipId}`,
        slipId,
        userId: 'u1',
        guildKey: 'g1',
        day: DAY,
        stakeCents,
        dayLimitCents: 100_000,
        caps,
        now: Date.now(),
      });
    await raceSlip('single', 'u1', 6, { runner: 'Alpha' });
    expect((await claim('single', 600)).kind).toBe('claimed');
    // $6.00 rides on Alpha: a $5.00 multi with an Alpha leg would make it $11.00.
    await raceSlip('m1', 'u1', 5, { legs: ['Bravo', 'Alpha'] });
    const refused = await claim('m1', 500);
    expect(refused.kind === 'over_limit' && [refused.cap, refused.runner, refused.usedCents]).toEqual([
      'runner',
      'Alpha',
      600,
    ]);
    await raceSlip('m2', 'u1', 5, { legs: ['Bravo', 'Charlie'] });
    expect((await claim('m2', 500)).kind).toBe('claimed');
    // A stack counts each multi's stake on its own legs (both Alpha top 3 + Bravo top 4 here): Alpha $6 + $2 + $2
    // is the cap exactly, Bravo $5 + $2 + $2 under it; one more $1 + $1 stack would take Alpha past it.
    const stack = await stackSlip('st', 'u1', [2, 2]);
    expect((await claimStack('st', 'u1', stack, { caps })).kind).toBe('claimed');
    const stack2 = await stackSlip('st2', 'u1', [1, 1]);
    const over = await claimStack('st2', 'u1', stack2, { caps });
    expect(over.kind === 'over_limit' && [over.cap, over.runner, over.usedCents]).toEqual(['runner', 'Alpha', 1_000]);
  });
});
