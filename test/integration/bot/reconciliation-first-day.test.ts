import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { reconcileYesterday } from '../../../src/bot/audit/daily-reconciliation.js';
import type { GatewayPort } from '../../../src/bot/gateway-port.js';
import { dayIn, dayStart } from '../../../src/bot/model/dates.js';
import { updateSettings } from '../../../src/bot/settings/guild-settings.js';
import { type BotStore, openStore } from '../../../src/bot/store/index.js';
import { ENGINES, freshStoreUrl } from '../../pg/engines.js';

// Issue 45: a new desk's first beat of the daily reconciliation posted "Daily reconciliation · <the day before it
// ran>" in #results, a report of a day it held nothing of. A day over before the store was made is not reported;
// the first report is of the day the desk began.
const GUILD = 'g1';
// No session to read: the report is the desk's own entries only.
const gateway = { sessions: { list: async () => [] } } as unknown as GatewayPort;

describe.each(ENGINES)('the daily reconciliation of a new desk on %s', (engine) => {
  let store: BotStore;
  let cleanup: () => void;
  let born: number;
  let posted: string[];
  const outbox = {
    has: async () => false,
    create: async (key: string) => {
      posted.push(key);
    },
  };
  const beat = (now: number) =>
    reconcileYesterday({ guildIds: [GUILD], store, gateway, outbox: outbox as never, callbackUrl: undefined, now });

  beforeEach(async () => {
    const fresh = await freshStoreUrl(engine);
    cleanup = fresh.cleanup;
    store = await openStore(fresh.url);
    born = Number((await store.query<{ t: number }>('SELECT MIN(applied_at) AS t FROM schema_migrations'))[0]?.t);
    await updateSettings(store, GUILD, (s) => ({ ...s, resultsChannelId: 'results' }));
    posted = [];
  });
  afterEach(async () => {
    await store.close();
    cleanup();
  });

  it('posts nothing for the day before the store was made, all through the day it was made', async () => {
    const bornDay = dayStart(dayIn(born, 'UTC'), 'UTC') as number;
    await beat(bornDay + 86_400_000 - 1);
    expect(posted).toEqual([]);
  });

  it('reports the day the desk began once it is over', async () => {
    const bornDay = dayStart(dayIn(born, 'UTC'), 'UTC') as number;
    await beat(bornDay + 86_400_000 + 600_000);
    expect(posted).toEqual([`recon:${GUILD}:${dayIn(born, 'UTC')}`]);
  });
});
