import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Router } from '../../../src/sandbox/core/router.js';
import { createSandboxServer } from '../../../src/sandbox/core/server.js';
import type { RunningSandbox } from '../../../src/sandbox/index.js';
import { worldControlRoutes } from '../../../src/sandbox/routes/world-control.js';
import type { SimWorld } from '../../../src/sandbox/world/index.js';
import { boot, get, post, waitJob, worldOf } from './world-helpers.js';

// The world control routes on a server of their own (the platform mounts them with its /_sandbox routes).
let sb: RunningSandbox;
let world: SimWorld;
let control: Server;
let controlUrl: string;
beforeAll(async () => {
  sb = await boot();
  world = worldOf(sb);
  control = createSandboxServer(sb.sb, new Router(worldControlRoutes));
  await new Promise<void>((resolve) => control.listen(0, '127.0.0.1', resolve));
  controlUrl = `http://127.0.0.1:${(control.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => {
    control?.close(() => resolve());
    control?.closeAllConnections();
  });
  await sb?.close();
});

describe('world control routes', () => {
  it('POST /_sandbox/world/drift moves the live price that a price check reads', async () => {
    const ev = world
      .allEvents()
      .find((e) => !e.isOutright && e.startMs > world.nowMs() && world.link(e, 'bookie_a').linked)!;
    const card = await get(sb.url, '/v3/markets', { epk: ev.epk, bookie: 'bookie_a', market: 'head_to_head' });
    const row = card.body.markets[0].selections[0];
    const moved = await post(controlUrl, '/_sandbox/world/drift', { factor: 1.5, bookie: 'bookie_a', epk: ev.epk });
    expect(moved.status).toBe(200);
    const check = await post(sb.url, '/v3/price_check', {
      session_ids: ['5e55a1fa-0000-4000-8000-00000000000a'],
      category: 'sports',
      sport: ev.league,
      epk: ev.epk,
      market_ref: row.market_ref,
    });
    const entry = await waitJob(sb.url, check.body.queries[0].correlation_id);
    expect(entry.result.selections[0].price).toBeGreaterThan(row.odds * 1.4);
  });

  it('POST /_sandbox/world/drift answers 400 without a positive factor', async () => {
    const res = await post(controlUrl, '/_sandbox/world/drift', { factor: -1 });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('factor');
  });

  it('GET /_sandbox/world/event tells each book its site_event_id and whether it is linked', async () => {
    const now = world.nowMs();
    const ev = world.allEvents().find((e) => e.links.some((l) => l.linkedFromMs > now))!;
    const res = await get(controlUrl, '/_sandbox/world/event', { epk: ev.epk });
    expect(res.status).toBe(200);
    const late = res.body.books.find((b: { linked: boolean }) => !b.linked);
    expect(late.site_event_id).toMatch(/^(A|BB|C)-\d{8}$/);
    expect(typeof late.links_at).toBe('string');
    expect((await get(controlUrl, '/_sandbox/world/event', { epk: 'nope' })).status).toBe(404);
  });
});
