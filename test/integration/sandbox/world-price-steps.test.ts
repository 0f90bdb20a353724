import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/index.js';
import { DRIFT_STEP_MS } from '../../../src/sandbox/world/drift.js';
import type { SimWorld } from '../../../src/sandbox/world/index.js';
import { boot, upcomingEvent, worldOf } from './world-helpers.js';

// A start between two five-minute marks: steps count from it, not from the wall clock's marks.
const START = new Date('2026-11-20T12:02:17.000Z');

let sb: RunningSandbox;
let world: SimWorld;
beforeAll(async () => {
  sb = await boot({ start: START });
  world = worldOf(sb);
});
afterAll(async () => {
  await sb?.close();
});

/** Every selection's live price on one book's card of an upcoming event, at sandbox time `t`. */
function pricesAt(t: number): number[] {
  const ev = upcomingEvent(world, (e) => e.links.length > 0);
  const bookie = ev.links[0]!.bookie;
  return world
    .card(ev, bookie)
    .flatMap((m) => m.selections.map((sel) => world.livePrice(bookie, ev.epk, m.market, sel, t)));
}

describe('natural price steps', () => {
  it('count from the sandbox start: prices hold still through the first step', () => {
    expect(world.priceEpochMs).toBe(START.getTime());
    expect(pricesAt(START.getTime() + DRIFT_STEP_MS - 1)).toEqual(pricesAt(START.getTime()));
  });

  it('move at the first step after the start', () => {
    expect(pricesAt(START.getTime() + DRIFT_STEP_MS)).not.toEqual(pricesAt(START.getTime()));
  });

  it('keep their epoch in a snapshot and take it back on load', () => {
    const dump = world.dump();
    expect(dump.priceEpochMs).toBe(START.getTime());
    world.priceEpochMs = 0;
    world.load(dump);
    expect(world.priceEpochMs).toBe(START.getTime());
  });
});
