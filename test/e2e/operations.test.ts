import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type PgCluster, startPgCluster } from '../pg/cluster.js';
import { betSlip, messageMatching, newTrail, pickEvent, press } from '../support/flows.js';
import { type Desk, startDesk } from '../support/harness.js';
import { type Exposition, parseExposition, total } from '../support/prom-text.js';

const TOKEN = 'scrape-token-for-tests-7f3a';

async function scrape(desk: Desk, token = TOKEN): Promise<{ status: number; type: string | null; text: string }> {
  const res = await fetch(`${desk.bot.receiverUrl}/metrics`, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
}

async function metrics(desk: Desk): Promise<Exposition> {
  const r = await scrape(desk);
  expect(r.status).toBe(200);
  return parseExposition(r.text);
}

describe('GET /metrics on the receiver port', () => {
  let desk: Desk;
  beforeAll(async () => {
    desk = await startDesk({ webhooks: true, env: { METRICS_TOKEN: TOKEN } });
  }, 60_000);
  afterAll(() => desk?.close());

  it('refuses a scrape without the bearer token', async () => {
    const res = await fetch(`${desk.bot.receiverUrl}/metrics`);
    expect(res.status).toBe(401);
    expect((await scrape(desk, 'wrong-token')).status).toBe(401);
  });

  it('is Prometheus text that a strict reader accepts, with the process and event-loop figures', async () => {
    const r = await scrape(desk);
    expect(r.type).toMatch(/^text\/plain; version=0\.0\.4/);
    const e = parseExposition(r.text);
    expect(e.types.get('desk_interaction_ack_seconds')).toBe('histogram');
    expect(e.types.get('desk_bet_transitions_total')).toBe('counter');
    expect(total(e, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(e.samples.some((s) => s.name === 'nodejs_eventloop_delay_seconds' && s.labels.quantile === '0.99')).toBe(
      true,
    );
  });

  it('counts a bet placed through Discord: the /bet, the Confirm, its moves, its job result and the acks', async () => {
    const before = await metrics(desk);
    const sel = await pickEvent(desk, 'nba', 0);
    const trail = newTrail();
    const { slip } = await betSlip(desk, trail, { user: desk.ld.users.bettor, sel, stake: 5 });
    await press(desk, trail, desk.ld.users.bettor, slip, /^Confirm$/);
    await messageMatching(desk, slip, /Bet placed ✅/, 20_000);
    const after = await metrics(desk);
    const moved = (name: string, match: Record<string, string> = {}) =>
      total(after, name, match) - total(before, name, match);

    expect(moved('desk_interactions_total', { kind: 'command', name: 'bet', outcome: 'ok' })).toBe(1);
    expect(moved('desk_interactions_total', { kind: 'component', name: 'slip:confirm', outcome: 'ok' })).toBe(1);
    expect(moved('desk_bet_transitions_total', { move: 'claim', to: 'sending' })).toBe(1);
    expect(moved('desk_bet_transitions_total', { to: 'placed' })).toBe(1);
    expect(moved('desk_job_results_total', { status: 'completed' })).toBeGreaterThanOrEqual(1);
    expect(moved('desk_interaction_ack_seconds_count')).toBeGreaterThanOrEqual(2);
    expect(moved('desk_store_statement_seconds_count')).toBeGreaterThan(0);
    // Labels name commands, moves and states only: no member id, no token, no key.
    const labelText = after.samples.map((s) => Object.values(s.labels).join(' ')).join(' ');
    for (const secret of [desk.ld.users.bettor.id, ...desk.secrets, TOKEN]) expect(labelText).not.toContain(secret);
  }, 90_000);
});

describe('GET /readyz (and /metrics left off)', () => {
  let cluster: PgCluster;
  let desk: Desk;
  beforeAll(async () => {
    // A cluster of this test's own: stopping it must not touch the stores of other tests.
    cluster = await startPgCluster();
    desk = await startDesk({ env: { STORE_URL: await createDatabase(cluster.adminUrl, 'readyz') } });
  }, 90_000);
  afterAll(async () => {
    await desk?.close();
    await cluster?.stop();
  });

  it('leaves /metrics off when neither METRICS=on nor a token is set', async () => {
    expect((await fetch(`${desk.bot.receiverUrl}/metrics`)).status).toBe(404);
  });

  it('is 200 while the store, Discord and the gateway answer, and 503 naming the store once PostgreSQL stops', async () => {
    const ready = await fetch(`${desk.bot.receiverUrl}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ ready: true });

    await cluster.stop();
    const down = await fetch(`${desk.bot.receiverUrl}/readyz`);
    expect(down.status).toBe(503);
    const body = (await down.json()) as { ready: boolean; failing: string[] };
    expect(body.ready).toBe(false);
    expect(body.failing.map((f) => f.split(':')[0])).toEqual(['store']);
    // Liveness is not readiness: the process itself still answers.
    expect((await fetch(`${desk.bot.receiverUrl}/healthz`)).status).toBe(200);
  }, 60_000);
});
