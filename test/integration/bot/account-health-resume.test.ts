// After a restart, account health records the evidence a crash (or a desk older than the evidence) left missing and
// judges each session once: a backlog of thousands of open bets must not make the start read the window per bet.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { AccountHealth } from '../../../src/bot/accounts/account-health.js';
import type { BetRecord } from '../../../src/bot/betting/bet-records.js';
import { betViews } from '../../../src/bot/betting/views/bet-presenter.js';
import type { Catalog } from '../../../src/bot/catalog/catalog.js';
import { createLogger } from '../../../src/bot/config/logger.js';
import type { Outbox } from '../../../src/bot/outbox/outbox.js';
import { type BotStore, openStore } from '../../../src/bot/store/index.js';
import { freshStoreUrl } from '../../pg/engines.js';

const NOW = Date.parse('2026-11-20T12:00:00Z');
const BETS = 1_500;

let store: BotStore;
let cleanup: () => void;
beforeEach(async () => {
  const fresh = await freshStoreUrl('sqlite', { migrated: true });
  cleanup = fresh.cleanup;
  store = await openStore(fresh.url);
});
afterEach(async () => {
  await store.close();
  cleanup();
});

function placed(i: number): BetRecord {
  return {
    placementId: `p-${i}`,
    slipId: `s-${i}`,
    guildKey: 'g1',
    guildId: 'g1',
    channelId: 'c1',
    messageId: null,
    userId: 'u1',
    sessionId: i % 2 === 0 ? 'sess-a' : 'sess-b',
    bookie: i % 2 === 0 ? 'bookie_a' : 'bookie_b',
    day: '2026-11-20',
    stakeCents: 1_000,
    payload: { stakeCents: 1_000, sport: 'nfl', marketKey: 'head_to_head' } as BetRecord['payload'],
    state: 'placed',
    correlationId: null,
    timeoutAt: null,
    betId: `b-${i}`,
    odds: 2,
    note: null,
    settledStatus: null,
    pnlCents: null,
    misses: 0,
    closeOdds: null,
    closeMarket: null,
    createdAt: NOW - 3_600_000,
    updatedAt: NOW - 3_600_000,
  };
}

it('records a backlog of bets without evidence and reads the evidence window once, not once per bet', async () => {
  let windowReads = 0;
  const counting = new Proxy(store, {
    get(target, prop, receiver) {
      if (prop !== 'query') return Reflect.get(target, prop, receiver);
      return (sql: string, ...params: unknown[]) => {
        if (/FROM account_evidence WHERE at >=/.test(sql)) windowReads++;
        return target.query(sql, ...params);
      };
    },
  });
  // Healthy sessions announce nothing, so neither the catalog's listing nor the outbox is asked.
  const accounts = new AccountHealth({
    store: counting,
    catalog: { peekSessions: async () => undefined } as unknown as Catalog,
    outbox: {} as Outbox,
    present: betViews,
    logger: createLogger({ write: () => undefined }),
    now: () => NOW,
  });
  await accounts.resume(Array.from({ length: BETS }, (_, i) => placed(i)));
  const [row] = await store.query<{ n: number }>('SELECT COUNT(*) AS n FROM account_evidence');
  expect(Number(row?.n)).toBe(BETS);
  expect(windowReads).toBe(1);
});
