// CAPTURE_SHARE_PERCENT reaches the card limiter of the client the bot builds: the closing capture's lane.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Desk, startDesk } from '../../support/bot-desk.js';

let desk: Desk;
beforeAll(async () => {
  desk = await startDesk({ env: { CAPTURE_SHARE_PERCENT: '10' } });
}, 60_000);
afterAll(async () => {
  await desk?.close();
});

describe('the closing capture share', () => {
  it("sets the background lane of the bot's card limiter to that share of 120 reads a minute", () => {
    expect(desk.bot.context.gateway.marketsLimiter?.backgroundCapacity).toBe(12);
  });
});
