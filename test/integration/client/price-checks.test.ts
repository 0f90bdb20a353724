import { afterEach, describe, expect, it } from 'vitest';
import { GatewayClient } from '../../../src/gateway/index.js';
import { until } from '../../support/wait.js';
import { type Harness, json, startHarness } from './http-harness.js';

let harness: Harness | undefined;
let client: GatewayClient | undefined;
afterEach(async () => {
  await client?.close();
  await harness?.close();
  client = undefined;
  harness = undefined;
});

const inFiveMinutes = () => new Date(Date.now() + 300_000).toISOString();

describe('price checks', () => {
  it('racing: one job per session from queries, each resolved by the shared poller', async () => {
    harness = await startHarness((req, res) => {
      if (req.path === '/v3/price_check') {
        return json(res, 202, {
          status: 'pending',
          category: 'racing',
          race: { track: 'Randwick', race_num: 2, race_type: '(R)', date: '2026-11-21' },
          queries: [
            { session_id: 's-a', correlation_id: 'pc-a' },
            { session_id: 's-b', correlation_id: 'pc-b' },
          ],
          timeout_at: inFiveMinutes(),
        });
      }
      const ids = (req.body as { correlation_ids: string[] }).correlation_ids;
      json(res, 200, {
        statuses: ids.map((id) => ({
          correlation_id: id,
          status: 'completed',
          result: {
            status: 'success',
            category: 'racing',
            session_id: id === 'pc-a' ? 's-a' : 's-b',
            bookie: 'bookie_a',
            selections: [{ runner: 'Fast Horse', prices: [{ market: 'win', price: 3.2 }] }],
          },
        })),
      });
    });
    client = new GatewayClient({ baseUrl: harness.url, apiKey: 'k', poller: { intervalMs: 30 } });
    const { submission, jobs } = await client.priceChecks.racing({
      session_ids: ['s-a', 's-b'],
      category: 'racing',
      track: 'Randwick',
      race_num: 2,
      date: '2026-11-21',
    });
    expect(submission.race?.track).toBe('Randwick');
    expect(jobs.map((j) => j.correlationId)).toEqual(['pc-a', 'pc-b']);
    const outcomes = await Promise.all(jobs.map((j) => j.wait()));
    expect(outcomes.map((o) => o.status === 'completed' && o.result.session_id)).toEqual(['s-a', 's-b']);
    expect(harness.count('/api/bet_status')).toBe(1);
  });

  it('sports: a query resolved in the 202 gives a job that resolves at once, a pending one is polled', async () => {
    harness = await startHarness((req, res) => {
      if (req.path === '/v3/price_check') {
        return json(res, 202, {
          status: 'pending',
          category: 'sports',
          queries: [
            {
              session_id: 's-a',
              correlation_id: 'pc-fast',
              status: 'success',
              bookie: 'bookie_a',
              selections: [{ selection: 'home', market: 'head_to_head', price: 1.91, market_ref: 'mr-1' }],
            },
            { session_id: 's-b', correlation_id: 'pc-slow', timeout_at: inFiveMinutes() },
          ],
        });
      }
      json(res, 200, {
        statuses: [
          {
            correlation_id: 'pc-slow',
            status: 'completed',
            result: {
              status: 'failure',
              category: 'sports',
              session_id: 's-b',
              bookie: 'bookie_b',
              error: 'market_not_carried',
            },
          },
        ],
      });
    });
    client = new GatewayClient({ baseUrl: harness.url, apiKey: 'k', poller: { intervalMs: 30 } });
    const { jobs } = await client.priceChecks.sports({
      session_ids: ['s-a', 's-b'],
      category: 'sports',
      market_ref: 'mr-1',
      epk: 'basketball/us/nba/a_v_b/2026-11-21',
      sport: 'NBA',
    });
    const fast = await jobs[0]!.wait();
    expect(fast.status).toBe('completed');
    expect(fast.status === 'completed' && fast.result.category).toBe('sports');
    expect(fast.status === 'completed' && fast.result.bookie).toBe('bookie_a');
    expect(harness.count('/api/bet_status')).toBe(0);
    const slow = await jobs[1]!.wait();
    expect(slow.status === 'completed' && slow.result.status).toBe('failure');
    const sent = harness.received[0]!.body as Record<string, unknown>;
    expect(sent).toEqual({
      session_ids: ['s-a', 's-b'],
      category: 'sports',
      market_ref: 'mr-1',
      epk: 'basketball/us/nba/a_v_b/2026-11-21',
      sport: 'NBA',
    });
  });
});

describe('honest price-check handles', () => {
  it('marks a query answered in the 202 as resolved, with no correlation id the gateway did not send', async () => {
    harness = await startHarness((_req, res) =>
      json(res, 202, {
        status: 'pending',
        category: 'sports',
        queries: [
          {
            session_id: 's-a',
            status: 'success',
            bookie: 'bookie_a',
            selections: [{ selection: 'home', market: 'head_to_head', price: 2.05, market_ref: 'mr-1' }],
          },
          { session_id: 's-b', correlation_id: 'pc-b', timeout_at: inFiveMinutes() },
        ],
      }),
    );
    client = new GatewayClient({ baseUrl: harness.url, apiKey: 'k', poller: { intervalMs: 60_000 } });
    const { jobs } = await client.priceChecks.sports({
      session_ids: ['s-a', 's-b'],
      market_ref: 'mr-1',
      epk: 'basketball/us/nba/a_v_b/2026-11-21',
      sport: 'NBA',
    });
    const [fast, slow] = jobs;
    expect(fast).toMatchObject({ resolved: true, correlationId: null, sessionId: 's-a' });
    expect(fast!.resolved && fast!.result.selections?.[0]?.price).toBe(2.05);
    expect(slow).toMatchObject({ resolved: false, correlationId: 'pc-b', sessionId: 's-b' });
    expect(JSON.stringify(jobs.map((j) => j.correlationId))).not.toMatch(/resolved/);
    // The method implies the category: the body says sports without the caller naming it.
    expect((harness.received[0]!.body as { category: string }).category).toBe('sports');
  });

  it('stops polling a job when its only waiter aborts, and keeps polling while another waits', async () => {
    harness = await startHarness((req, res) => {
      if (req.path === '/v3/price_check') {
        return json(res, 202, {
          status: 'pending',
          category: 'racing',
          queries: [{ session_id: 's-a', correlation_id: 'pc-a', timeout_at: inFiveMinutes() }],
        });
      }
      const ids = (req.body as { correlation_ids: string[] }).correlation_ids;
      json(res, 200, { statuses: ids.map((id) => ({ correlation_id: id, status: 'pending' })) });
    });
    client = new GatewayClient({ baseUrl: harness.url, apiKey: 'k', poller: { intervalMs: 20 } });
    const { jobs } = await client.priceChecks.racing({
      session_ids: ['s-a'],
      track: 'Randwick',
      race_num: 2,
      date: '2026-11-21',
    });
    const job = jobs[0]!;
    const first = new AbortController();
    const second = new AbortController();
    const a = job.wait({ signal: first.signal }).catch((e: unknown) => e);
    const b = job.wait({ signal: second.signal }).catch((e: unknown) => e);
    await until('a bet_status poll', () => harness!.count('/api/bet_status') >= 1, { timeoutMs: 5_000, everyMs: 10 });
    first.abort(new Error('first gave up'));
    expect((await a) as Error).toHaveProperty('message', 'first gave up');
    expect(client.jobs.pendingCount).toBe(1);
    const polls = harness.count('/api/bet_status');
    await until('the next bet_status poll', () => harness!.count('/api/bet_status') > polls, {
      timeoutMs: 5_000,
      everyMs: 10,
    });
    second.abort(new Error('second gave up'));
    expect((await b) as Error).toHaveProperty('message', 'second gave up');
    expect(client.jobs.pendingCount).toBe(0);
    expect(client.jobs.pollerActive).toBe(false);
  });
});

describe('events pager', () => {
  const pages: Record<string, { data: string[]; next: string | null }> = {
    '': { data: ['e1', 'e2'], next: 'c1' },
    c1: { data: ['e3'], next: 'c2' },
    c2: { data: ['e4', 'e5'], next: null },
  };
  const serve = () =>
    startHarness((req, res) => {
      const page = pages[req.query.get('cursor') ?? '']!;
      json(res, 200, {
        count: page.data.length,
        next_cursor: page.next,
        data: page.data.map((id) => ({
          event_id: id,
          sport: 'basketball',
          league: 'nba',
          name: id,
          start_time: 't',
          books: [],
          status: 'prematch',
        })),
      });
    });

  it('tells whether a next page exists and which cursor it has, page by page', async () => {
    harness = await serve();
    client = new GatewayClient({ baseUrl: harness.url, apiKey: 'k' });
    const pager = client.events.pages({ league: 'nba' });
    expect(pager.hasNextPage()).toBe(true);
    expect((await pager.nextPage()).data.map((e) => e.event_id)).toEqual(['e1', 'e2']);
    expect(pager.nextCursor).toBe('c1');
    await pager.nextPage();
    await pager.nextPage();
    expect(pager.hasNextPage()).toBe(false);
    expect(pager.nextCursor).toBeNull();
    await expect(pager.nextPage()).rejects.toThrow(/No next page/);
  });

  it('resumes from a saved cursor with the same filters', async () => {
    harness = await serve();
    client = new GatewayClient({ baseUrl: harness.url, apiKey: 'k' });
    const first = client.events.pages({ league: 'nba' });
    await first.nextPage();
    const saved = first.nextCursor;
    const ids: string[] = [];
    for await (const e of client.events.pages({ league: 'nba' }, { cursor: saved })) ids.push(e.event_id);
    expect(ids).toEqual(['e3', 'e4', 'e5']);
    expect(harness.received.map((r) => `${r.query.get('league')} ${r.query.get('cursor')}`)).toEqual([
      'nba null',
      'nba c1',
      'nba c2',
    ]);
  });

  it('stops reading pages once all({ max }) has enough events', async () => {
    harness = await serve();
    client = new GatewayClient({ baseUrl: harness.url, apiKey: 'k' });
    const events = await client.events.pages({ league: 'nba' }).all({ max: 3 });
    expect(events.map((e) => e.event_id)).toEqual(['e1', 'e2', 'e3']);
    expect(harness.count('/odds/v1/events')).toBe(2);
    expect((await client.events.all({ league: 'nba' }, { max: 1 })).map((e) => e.event_id)).toEqual(['e1']);
  });
});

describe('events iterator', () => {
  it('follows next_cursor with the same filters until it is null, through short pages', async () => {
    const pages: Record<string, { data: string[]; next: string | null }> = {
      '': { data: ['e1', 'e2'], next: 'c1' },
      c1: { data: ['e3'], next: 'c2' },
      c2: { data: [], next: 'c3' },
      c3: { data: ['e4'], next: null },
    };
    harness = await startHarness((req, res) => {
      const page = pages[req.query.get('cursor') ?? '']!;
      json(res, 200, {
        count: page.data.length,
        truncated: page.next !== null,
        next_cursor: page.next,
        data: page.data.map((id) => ({
          event_id: id,
          sport: 'basketball',
          league: 'nba',
          name: id,
          start_time: 't',
          books: ['bookie_a'],
          status: 'prematch',
        })),
      });
    });
    client = new GatewayClient({ baseUrl: harness.url, apiKey: 'k' });
    const ids: string[] = [];
    for await (const e of client.events.iterate({ league: 'nba', date: '2026-11-21', limit: 2 })) ids.push(e.event_id);
    expect(ids).toEqual(['e1', 'e2', 'e3', 'e4']);
    expect(
      harness.received.map((r) => `${r.query.get('league')} ${r.query.get('date')} ${r.query.get('limit')}`),
    ).toEqual(Array(4).fill('nba 2026-11-21 2'));
    expect(harness.received.map((r) => r.query.get('cursor'))).toEqual([null, 'c1', 'c2', 'c3']);
  });

  it('refuses date with since locally, sending nothing', async () => {
    harness = await startHarness((_req, res) => json(res, 200, {}));
    client = new GatewayClient({ baseUrl: harness.url, apiKey: 'k' });
    await expect(client.events.list({ date: '2026-11-21', since: '2026-11-20' })).rejects.toThrow(/cannot be combined/);
    expect(harness.received).toHaveLength(0);
  });
});
