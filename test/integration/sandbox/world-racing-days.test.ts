// Racing days are the tracks' local days, and race promos, promo tokens and boost tokens cover races still to run.
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/index.js';
import { boot, get, post, waitJob } from './world-helpers.js';

const A = '5e55a1fa-0000-4000-8000-00000000000a';
let sb: RunningSandbox | undefined;
afterEach(async () => {
  await sb?.close();
  sb = undefined;
});

async function job(base: string, path: string, body: Record<string, unknown>) {
  const res = await post(base, path, body);
  expect(res.status).toBe(202);
  return (await waitJob(base, res.body.correlation_id)).result;
}

const jumpOf = async (base: string, key: string) =>
  (await get(base, '/_sandbox/world/closing', { epk: key })).body.off_at as string;

describe("racing in the tracks' local time", () => {
  it("dates a race by the track's local day: Flemington R1 jumps at 12:30 Melbourne time, summer and winter", async () => {
    sb = await boot({ start: new Date('2026-11-20T00:00:00Z') });
    expect(await jumpOf(sb.url, 'Flemington/1/R/au/2026-11-21')).toBe('2026-11-21T01:30:00.000Z');
    await sb.close();
    sb = await boot({ start: new Date('2026-06-20T00:00:00Z') });
    expect(await jumpOf(sb.url, 'Flemington/1/R/au/2026-06-21')).toBe('2026-06-21T02:30:00.000Z');
  });

  it('lists race promos after the last race of the UTC day only for races still to run, dated by local day', async () => {
    // 12:00 UTC is 23:00 in Sydney: every race of the local day has run, so the promos are the next day's.
    sb = await boot({ start: new Date('2026-11-20T12:00:00Z') });
    const now = Date.parse('2026-11-20T12:00:00Z');
    const r = await job(sb.url, '/v3/promos', { session_id: A });
    expect(r.count).toBeGreaterThan(0);
    for (const p of r.promos) {
      expect(Date.parse(p.valid_till)).toBeGreaterThan(now);
      expect(p.event_url).toContain('/2026-11-21/');
      expect(p.valid_till).toBe(await jumpOf(sb.url, `${p.track}/${p.race_num}/${p.race_type}/au/2026-11-21`));
    }
  });

  it('drops a promo once its race has jumped, while later races of the day keep theirs', async () => {
    sb = await boot({ start: new Date('2026-11-21T00:00:00Z') });
    const before = await job(sb.url, '/v3/promos', { session_id: A });
    const first = [...before.promos].sort(
      (a: { valid_till: string }, b: { valid_till: string }) => Date.parse(a.valid_till) - Date.parse(b.valid_till),
    )[0];
    const jump = Date.parse(first.valid_till);
    await post(sb.url, '/_sandbox/clock/advance', { ms: jump - Date.parse('2026-11-21T00:00:00Z') + 1_000 });
    const after = await job(sb.url, '/v3/promos', { session_id: A });
    const key = (p: { track: string; race_num: number }) => `${p.track}#${p.race_num}`;
    expect(after.promos.map(key)).not.toContain(key(first));
    expect(after.count).toBeGreaterThan(0);
  });

  it('prices promo tokens and boost tokens for a listed race late in the UTC day', async () => {
    sb = await boot({ start: new Date('2026-11-20T12:00:00Z') });
    const promos = await job(sb.url, '/v3/promos', { session_id: A });
    const p = promos.promos[0];
    const tokens = await job(sb.url, '/v3/promo_tokens', {
      session_id: A,
      track: p.track,
      race_num: p.race_num,
      race_type: `(${p.race_type})`,
    });
    expect(tokens.success).toBe(true);
    expect(tokens.saver_tokens[0]).toMatchObject({ is_race_specific: true });
    expect(tokens.saver_tokens[0].usage_restrictions).toContain('2026-11-21');
    const boost = await post(sb.url, '/v2/boost_token', {
      session_id: A,
      track: p.track,
      race_num: p.race_num,
      race_type: p.race_type,
    });
    expect(boost.status).toBe(200);
    expect(boost.body).toEqual({ success: true, boost_token_available: expect.any(Boolean) });
  });
});
