// Snapshot and restore of the whole state, so a test can rewind.
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/index.js';
import { boot, get, post, TOMORROW, waitJob, worldOf } from './world-helpers.js';

const A = '5e55a1fa-0000-4000-8000-00000000000a';
let sb: RunningSandbox | undefined;
let other: RunningSandbox | undefined;
afterEach(async () => {
  await sb?.close();
  await other?.close();
  sb = undefined;
  other = undefined;
});

const balance = async (base: string) => (await post(base, '/v3/balance', { session_id: A })).body.balance as number;
const now = async (base: string) => (await get(base, '/_sandbox/state')).body.now as string;
async function transactions(base: string) {
  const res = await post(base, '/v3/transactions', { session_id: A, limit: 500 });
  return (await waitJob(base, res.body.correlation_id)).result.transactions as { id: string }[];
}

function bet(running: RunningSandbox, stake: number) {
  const race = worldOf(running).race('Menangle', 3, 'H', TOMORROW)!;
  return {
    session_id: A,
    category: 'racing',
    track: 'Menangle',
    race_num: 3,
    race_type: '(H)',
    date: TOMORROW,
    runner: race.runners[0]!.name,
    market: 'win',
    stake,
    target_odds: 1.01,
  };
}

describe('snapshot and restore', () => {
  it('rewinds the clock, money, bets and jobs to the snapshot, and never reissues a bet id', async () => {
    sb = await boot();
    const snap = await post(sb.url, '/_sandbox/snapshot', {});
    expect(snap.status).toBe(200);
    const t0 = await now(sb.url);
    const cash0 = await balance(sb.url);
    const txns0 = await transactions(sb.url);

    const placed = await post(sb.url, '/v3/place_bet', bet(sb, 12));
    const first = (await waitJob(sb.url, placed.body.correlation_id)).result;
    expect(first.success).toBe(true);
    await post(sb.url, '/_sandbox/clock/advance', { ms: 3 * 3_600_000 });
    expect(await balance(sb.url)).toBe(cash0 - 12);

    const restored = await post(sb.url, '/_sandbox/restore', { snapshot_id: snap.body.snapshot_id });
    expect(restored.status).toBe(200);
    expect(Date.parse(await now(sb.url)) - Date.parse(t0)).toBeLessThan(60_000);
    expect(await balance(sb.url)).toBe(cash0);
    expect((await transactions(sb.url)).map((t) => t.id)).toEqual(txns0.map((t) => t.id));
    const gone = await post(sb.url, '/api/bet_status', { correlation_ids: [placed.body.correlation_id] });
    expect(gone.body.statuses[0].status).toBe('unknown');

    const again = await post(sb.url, '/v3/place_bet', bet(sb, 12));
    const second = (await waitJob(sb.url, again.body.correlation_id)).result;
    expect(second.success).toBe(true);
    expect(second.bet_id).not.toBe(first.bet_id);
  });

  it('lets a job that was pending at the snapshot complete again after the restore', async () => {
    sb = await boot();
    const placed = await post(sb.url, '/v3/place_bet', bet(sb, 6));
    const snap = await post(sb.url, '/_sandbox/snapshot', {});
    expect((await waitJob(sb.url, placed.body.correlation_id)).status).toBe('completed');
    await post(sb.url, '/_sandbox/restore', { snapshot_id: snap.body.snapshot_id });
    const entry = await waitJob(sb.url, placed.body.correlation_id);
    expect(entry.status).toBe('completed');
    expect(entry.result.success).toBe(true);
    const bets = (await get(sb.url, '/_sandbox/state')).body.bets.filter(
      (b: { bet: { stake: number } }) => b.bet.stake === 6,
    );
    expect(bets).toHaveLength(1);
  });

  it('takes the state out as a JSON document and puts it into another sandbox of the same seed', async () => {
    sb = await boot();
    await post(sb.url, '/_sandbox/settle', {});
    const placed = await post(sb.url, '/v3/place_bet', bet(sb, 8));
    await waitJob(sb.url, placed.body.correlation_id);
    const snap = await post(sb.url, '/_sandbox/snapshot', { document: true });
    const document = JSON.parse(JSON.stringify(snap.body.document));

    other = await boot({ start: new Date('2026-11-20T18:00:00Z') });
    const res = await post(other.url, '/_sandbox/restore', { document });
    expect(res.status).toBe(200);
    // The restored clock runs on from the snapshot's time (real time passes meanwhile).
    const drift = Date.parse(await now(other.url)) - Date.parse(document.now);
    expect(drift).toBeGreaterThanOrEqual(0);
    expect(drift).toBeLessThan(5_000);
    expect(await balance(other.url)).toBe(await balance(sb.url));
    expect((await transactions(other.url)).length).toBe((await transactions(sb.url)).length);
    const finished = await get(other.url, '/odds/v1/events', { status: 'finished', limit: 200 });
    const mine = await get(sb.url, '/odds/v1/events', { status: 'finished', limit: 200 });
    expect(finished.body.data.map((e: { event_id: string }) => e.event_id)).toEqual(
      mine.body.data.map((e: { event_id: string }) => e.event_id),
    );
  });

  it('refuses a document of another seed (409) and an unknown snapshot id (404)', async () => {
    sb = await boot();
    const snap = await post(sb.url, '/_sandbox/snapshot', { document: true });
    other = await boot({ seed: 8 });
    const wrongSeed = await post(other.url, '/_sandbox/restore', { document: snap.body.document });
    expect(wrongSeed.status).toBe(409);
    expect(wrongSeed.body.detail).toMatch(/--seed 7/);
    const unknown = await post(sb.url, '/_sandbox/restore', { snapshot_id: 'nope' });
    expect(unknown.status).toBe(404);
    expect((await post(sb.url, '/_sandbox/restore', {})).status).toBe(400);
  });
});
