import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/index.js';
import { boot, get } from './world-helpers.js';

let sb: RunningSandbox;
let other: RunningSandbox;
beforeAll(async () => {
  [sb, other] = await Promise.all([boot(), boot()]);
});
afterAll(async () => {
  await Promise.all([sb?.close(), other?.close()]);
});

const events = (q: Record<string, string | number | boolean> = {}) => get(sb.url, '/odds/v1/events', q);

describe('GET /odds/v1/events', () => {
  it('lists events in start-time order with the spec fields, event_id equal to the epk', async () => {
    const res = await events({ date: '2026-11-21' });
    expect(res.status).toBe(200);
    expect(res.body.since).toBe('2026-11-21');
    expect(res.body.until).toBe('2026-11-21');
    expect(res.body.count).toBe(res.body.data.length);
    expect(res.body.count).toBeGreaterThan(20);
    const starts = res.body.data.map((e: { start_time: string }) => e.start_time);
    expect([...starts].sort()).toEqual(starts);
    for (const e of res.body.data) {
      expect(e.event_id).toMatch(/^[a-z_]+\/[a-z]+\/[a-z_]+\/[a-z0-9_]+_v_[a-z0-9_]+\/2026-11-21$/);
      expect(e.competitors.map((c: { side: string }) => c.side)).toEqual(['home', 'away']);
      expect(e.participants).toEqual([e.home, e.away]);
      expect(e.status).toBe('prematch');
      expect(e.score).toBeNull();
      expect(e.is_outright).toBe(false);
    }
  });

  it('filters by league, sport and country', async () => {
    const nba = await events({ league: 'nba', since: '2026-11-14', until: '2026-11-27' });
    expect(nba.body.count).toBeGreaterThan(40);
    expect(new Set(nba.body.data.map((e: { league: string }) => e.league))).toEqual(new Set(['nba']));
    const sport = await events({ sport: 'aussie_rules', date: '2026-11-20' });
    expect(sport.body.data.every((e: { sport: string }) => e.sport === 'aussie_rules')).toBe(true);
    const au = await events({ country: 'au', date: '2026-11-20' });
    expect(au.body.count).toBeGreaterThan(0);
    expect(au.body.data.every((e: { country: string }) => e.country === 'au')).toBe(true);
  });

  it('gives finished rows scores, off_at, off_source and has_closing; finished without a window is the last 7 days', async () => {
    const res = await events({ status: 'finished', limit: 500 });
    expect(res.status).toBe(200);
    expect(res.body.since).toBe('2026-11-14');
    expect(res.body.until).toBe('2026-11-20');
    const withScore = res.body.data.filter((e: { score: unknown }) => e.score !== null);
    expect(withScore.length).toBeGreaterThan(0);
    for (const e of res.body.data) {
      expect(e.status).toBe('finished');
      expect(typeof e.off_at).toBe('string');
      expect(['quorum', 'single_witness', 'scheduled']).toContain(e.off_source);
      expect('has_closing' in e).toBe(true);
    }
    expect(withScore[0].score).toMatchObject({ status: 'final', source: 'sandbox_feed' });
    expect(typeof withScore[0].score.home_score).toBe('number');
  });

  it('holds at most 200 finished rows on a page and says the page is truncated', async () => {
    const res = await events({ status: 'finished', limit: 500 });
    expect(res.body.count).toBe(200);
    expect(res.body.truncated).toBe(true);
    expect(typeof res.body.next_cursor).toBe('string');
  });

  it('walks every page with next_cursor, without repeats, until next_cursor is null', async () => {
    const q = { since: '2026-11-18', until: '2026-11-22', limit: 37 };
    const all = await events({ ...q, limit: 500 });
    expect(all.body.truncated).toBe(false);
    expect(all.body.next_cursor).toBeNull();
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await events(cursor ? { ...q, cursor } : q);
      expect(res.status).toBe(200);
      seen.push(...res.body.data.map((e: { event_id: string }) => e.event_id));
      cursor = res.body.next_cursor;
      pages++;
    } while (cursor);
    expect(pages).toBeGreaterThan(2);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual(all.body.data.map((e: { event_id: string }) => e.event_id));
  });

  it('refuses a cursor sent with different filters', async () => {
    const first = await events({ league: 'nba', since: '2026-11-14', until: '2026-11-27', limit: 5 });
    const res = await events({
      league: 'afl',
      since: '2026-11-14',
      until: '2026-11-27',
      cursor: first.body.next_cursor,
    });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('cursor');
    expect(res.body.detail).toMatch(/same filters/);
    const junk = await events({ cursor: 'not-a-cursor' });
    expect(junk.status).toBe(400);
    expect(junk.body.field).toBe('cursor');
  });

  it('lists outrights only with include_outrights=true', async () => {
    const without = await events({ date: '2026-11-27', league: 'nba' });
    expect(without.body.data.some((e: { is_outright: boolean }) => e.is_outright)).toBe(false);
    const withOut = await events({ date: '2026-11-27', league: 'nba', include_outrights: true });
    const outright = withOut.body.data.find((e: { is_outright: boolean }) => e.is_outright);
    expect(outright.event_id).toBe('basketball/us/nba/outright_championship_winner/2026-11-27');
    expect(outright).toMatchObject({ home: null, away: null, participants: [], competitors: [] });
  });

  it('defaults the window when only since or until is given', async () => {
    const onlyUntil = await events({ until: '2026-11-22' });
    expect([onlyUntil.body.since, onlyUntil.body.until]).toEqual(['2026-11-16', '2026-11-22']);
    const onlySince = await events({ since: '2026-11-19' });
    expect([onlySince.body.since, onlySince.body.until]).toEqual(['2026-11-19', '2026-11-21']);
  });

  it.each([
    [{ date: '2026-11-20', since: '2026-11-19' }, 'date'],
    [{ since: '2026-10-01', until: '2026-11-20' }, 'until'],
    [{ limit: 0 }, 'limit'],
    [{ limit: 501 }, 'limit'],
    [{ limit: 'ten' }, 'limit'],
    [{ date: '2026-02-30' }, 'date'],
    [{ status: 'live' }, 'status'],
    [{ include_outrights: 'maybe' }, 'include_outrights'],
    [{ league: 'quidditch' }, 'league'],
  ])('answers 400 naming the parameter for %o', async (q, field) => {
    const res = await events(q as Record<string, string>);
    expect(res.status).toBe(400);
    expect(res.body.field).toBe(field);
    expect(typeof res.body.detail).toBe('string');
  });

  it('is deterministic: the same seed gives the same first page', async () => {
    const a = await get(sb.url, '/odds/v1/events', { date: '2026-11-22', limit: 50 });
    const b = await get(other.url, '/odds/v1/events', { date: '2026-11-22', limit: 50 });
    const strip = (body: { data: unknown[] }) => body.data;
    expect(strip(b.body)).toEqual(strip(a.body));
  });

  it('moves an event to in_play then finished as the sandbox clock advances', async () => {
    const upcoming = await events({ date: '2026-11-20', status: 'prematch', limit: 1 });
    const ev = upcoming.body.data[0];
    const startMs = Date.parse(ev.start_time);
    const now = Date.parse((await get(sb.url, '/_sandbox/state')).body.now);
    await fetch(`${sb.url}/_sandbox/clock/advance`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ms: startMs - now + 10 * 60_000 }),
    });
    const live = await events({ date: '2026-11-20', limit: 500 });
    const row = live.body.data.find((e: { event_id: string }) => e.event_id === ev.event_id);
    expect(row.status).toBe('in_play');
    if (row.score) expect(row.score.status).toBe('live');
    await fetch(`${sb.url}/_sandbox/settle`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ epk: ev.event_id }),
    });
    const done = await events({ date: '2026-11-20', limit: 500 });
    expect(done.body.data.find((e: { event_id: string }) => e.event_id === ev.event_id).status).toBe('finished');
  });
});
